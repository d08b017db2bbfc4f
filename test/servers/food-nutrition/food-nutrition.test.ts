// The food_nutrition_mcp server as a real child process against a loopback fake of Edamam:
// every GT call parses the text, posts the parsed food to /nutrients with app_id/app_key, and
// answers in the reference's layout; empty answers keep its wording; failures are typed and
// never show the app id or key.
import { describe, expect, it } from 'vitest';
import { groundTruthCalls, loadFixture, missingSharedData, useWebServer } from '../../support/keyed-web-server.js';

const APP_ID = 'edamam-app-id-3b7e';
const APP_KEY = 'edamam-app-key-91fc0d';

const expected = (query: string) =>
  `Nutrition for: ${query}\n- Energy: 94.64 kcal\n- Protein: 0.47 g\n- Fat: 0.31 g\n- Carbs: 25.13 g\n- Fiber: 4.37 g\n- Sugars: 18.91 g\n- Sodium: 1.82 mg\n- Calcium: 10.92 mg\n- Iron: 0.22 mg\n- Vitamin C: 8.37 mg`;

const web = useWebServer('food-nutrition', {
  routes: () => [
    { path: '/api/food-database/v2/parser', reply: { body: loadFixture('food-nutrition', 'parser') } },
    { path: '/api/food-database/v2/nutrients', method: 'POST', reply: { body: loadFixture('food-nutrition', 'nutrients') } },
  ],
  env: (url) => ({ EDAMAM_APP_ID: APP_ID, EDAMAM_APP_KEY: APP_KEY, M3_UPSTREAM_EDAMAM_URL: url }),
});
const call = (args: Record<string, unknown>) => web.call('get_nutrition', args);

describe('food_nutrition_mcp/get_nutrition', () => {
  it('answers every GT call: parser then nutrients, credentials as app_id/app_key, ten nutrients with two decimals', async (context) => {
    const calls = groundTruthCalls('food_nutrition_mcp/get_nutrition');
    if (!calls) return context.skip(missingSharedData);
    expect(calls.length).toBe(20);
    for (const { arguments: args } of calls) {
      const answer = await call(args);
      expect(answer.isError, answer.text).toBe(false);
      expect(answer.text).toBe(expected(String(args.query)));
      expect(web.fake().requestsTo('/api/food-database/v2/parser').at(-1)?.query).toEqual({ app_id: APP_ID, app_key: APP_KEY, ingr: args.query });
      const nutrients = web.fake().requestsTo('/api/food-database/v2/nutrients').at(-1);
      expect(nutrients?.query).toEqual({ app_id: APP_ID, app_key: APP_KEY });
      expect(JSON.parse(nutrients?.body ?? '{}')).toEqual({
        ingredients: [{ quantity: 1, measureURI: 'http://www.edamam.com/ontologies/edamam.owl#Measure_unit', foodId: 'food_a1gb9ubb72c7snbuxr3weagwv0dd' }],
      });
    }
  });

  it('takes `food` as an alias and keeps the reference wording for missing input, no parse and no nutrients', async () => {
    expect((await call({ food: '1 medium apple' })).text).toBe(expected('1 medium apple'));
    expect((await call({})).text).toBe("Missing input query. Try something like '1 banana' or '2 eggs'.");
    web.fake().queueFault('/api/food-database/v2/parser', { body: { text: 'qwzx', parsed: [], hints: [] } });
    expect((await call({ query: 'qwzx' })).text).toBe('Could not parse the input. Try using simpler food names.');
    web.fake().queueFault('/api/food-database/v2/nutrients', { body: { calories: 0, totalNutrients: {} } });
    expect((await call({ query: '1 medium apple' })).text).toBe('No nutrients found.');
  });

  it('401 is auth, 429 a rate limit, 500 a server failure; a 404 is ordinary; no credential is shown', async () => {
    web.fake().queueFault('/api/food-database/v2/parser', { status: 401, body: { status: 'error', message: `Unauthorized app ${APP_ID}` } });
    expect((await call({ query: '1 pear' })).meta).toMatchObject({ code: 'upstream_auth', status: 401 });
    web.fake().queueFault('/api/food-database/v2/parser', { status: 429, headers: { 'retry-after': '60' }, body: {} });
    expect((await call({ query: '1 pear' })).meta?.code).toBe('upstream_rate_limited');
    web.fake().queueFault('/api/food-database/v2/nutrients', { status: 500, body: {} });
    expect((await call({ query: '1 pear' })).meta?.code).toBe('upstream_server_error');
    web.fake().queueFault('/api/food-database/v2/nutrients', { status: 404, body: `no food for app_key=${APP_KEY}&app_id=${APP_ID}` });
    const missing = await call({ query: '1 pear' });
    expect([missing.isError, missing.meta]).toEqual([true, undefined]);
    for (const text of web.texts) expect(text).not.toMatch(new RegExp(`${APP_ID}|${APP_KEY}`));
    expect(web.server().stderr()).not.toMatch(new RegExp(`${APP_ID}|${APP_KEY}`));
  });
});
