// The amazon server as a real child process against a loopback fake of the Rainforest API:
// all 90 GT search calls answer in the reference's exact plain-text layout, the request carries
// the key as api_key and the GT parameters, and failures are typed without showing the key.
import { describe, expect, it } from 'vitest';
import { shortTimeoutMessage, slowReply } from '../../support/slow-upstream.js';
import { groundTruthCalls, loadFixture, missingSharedData, useWebServer } from '../../support/keyed-web-server.js';

const KEY = 'rainforest-test-key-51d0';
const blocks = [
  '- Pepsi Cola Soda, 20 Fl Oz Bottles (Pack of 24)\n  https://www.amazon.com/dp/B07ZJ8V7Y5\n  https://m.media-amazon.com/images/I/71pepsi20oz._AC_UL320_.jpg\n  Price: $39.98',
  '- Pepsi Zero Sugar, 20 oz Bottle\n  https://www.amazon.com/dp/B0CZERO020\n  https://m.media-amazon.com/images/I/61pepsizero._AC_UL320_.jpg\n  Price: $2.49',
  '- Diet Pepsi, 20 oz Bottle\n  https://www.amazon.com/dp/B0CDIET020\n  https://m.media-amazon.com/images/I/61dietpepsi._AC_UL320_.jpg\n  Price: N/A',
  '- Pepsi Wild Cherry, 20 oz\n  https://www.amazon.com/dp/B0CCHERRY2\n  https://m.media-amazon.com/images/I/61cherry._AC_UL320_.jpg\n  Price: $2.29',
];

const web = useWebServer('amazon', {
  routes: () => [{ path: '/request', reply: (request) => ({ body: loadFixture('amazon', request.query.type === 'product' ? 'product' : 'search') }) }],
  env: (url) => ({ RAINFOREST_API_KEY: KEY, M3_UPSTREAM_RAINFOREST_URL: url }),
});
const call = web.call;

describe('amazon/search_products', () => {
  it('answers all 90 GT calls in the reference layout with the GT parameters and the key as api_key', async (context) => {
    const calls = groundTruthCalls('amazon/search_products');
    if (!calls) return context.skip(missingSharedData);
    expect(calls.length).toBe(90);
    for (const { arguments: args } of calls) {
      const answer = await call('search_products', args);
      expect(answer.isError, answer.text).toBe(false);
      const n = Math.max(1, Math.min(Number(args.n ?? 1), 10));
      expect(answer.text).toBe(blocks.slice(0, n).join('\n'));
      const query = web.fake().requestsTo('/request').at(-1)?.query;
      expect(query).toEqual({
        api_key: KEY,
        type: 'search',
        amazon_domain: args.amazon_domain ?? 'amazon.com',
        search_term: String(args.keywords).trim(),
        page: String(args.page ?? 1),
      });
    }
  });

  it('clamps n to 1..10, keeps the reference wording for empty input and empty results', async () => {
    expect((await call('search_products', { keywords: 'pepsi', n: 50 })).text).toBe(blocks.join('\n'));
    expect((await call('search_products', { keywords: 'pepsi', n: 0 })).text).toBe(blocks[0]);
    expect((await call('search_products', { keywords: '   ' })).text).toBe("Missing 'keywords'.");
    web.fake().queueFault('/request', { body: { request_info: { success: true }, search_results: [] } });
    expect((await call('search_products', { keywords: 'zzzz-no-such-thing' })).text).toBe('No results.');
  });
});

describe('amazon/get_product', () => {
  it('prints title, link, image, price and features', async () => {
    const answer = await call('get_product', { asin: 'B07PGLQD8H' });
    expect(answer.text).toBe(
      '**Persil ProClean Liquid Laundry Detergent, Original Scent, 100 Fl Oz**\nhttps://www.amazon.com/dp/B07PGLQD8H\nhttps://m.media-amazon.com/images/I/81persil.jpg\nPrice: $19.97\n\nFeatures:\n- Deep clean formula\n- Removes 99% of everyday stains',
    );
    expect(web.fake().requestsTo('/request').at(-1)?.query).toEqual({ api_key: KEY, type: 'product', amazon_domain: 'amazon.com', asin: 'B07PGLQD8H' });
    web.fake().queueFault('/request', { body: { request_info: { success: true }, product: {} } });
    expect((await call('get_product', { asin: 'B000000000' })).text).toBe('No product found.');
  });
});

describe('amazon: failures', () => {
  it('401 and 402 are credential failures, 429 a rate limit, 500 a server failure, bad JSON a bad response', async () => {
    web.fake().queueFault('/request', { status: 401, body: { request_info: { success: false, message: `Invalid API key ${KEY}` } } });
    const denied = await call('search_products', { keywords: 'pepsi' });
    expect([denied.isError, denied.meta?.code]).toEqual([true, 'upstream_auth']);
    web.fake().queueFault('/request', { status: 402, body: { request_info: { success: false, message: 'You have run out of credits' } } });
    expect((await call('search_products', { keywords: 'pepsi' })).meta).toMatchObject({ code: 'upstream_auth', status: 402 });
    web.fake().queueFault('/request', { status: 429, headers: { 'retry-after': '12' }, body: {} });
    expect((await call('search_products', { keywords: 'pepsi' })).meta).toMatchObject({ code: 'upstream_rate_limited', retryAfterSec: 12 });
    web.fake().queueFault('/request', { status: 503, body: 'Service Unavailable' });
    expect((await call('search_products', { keywords: 'pepsi' })).meta?.code).toBe('upstream_server_error');
    web.fake().queueFault('/request', { body: '{"search_results": [', headers: { 'content-type': 'application/json' } });
    expect((await call('search_products', { keywords: 'pepsi' })).meta?.code).toBe('upstream_bad_response');
    web.fake().queueFault('/request', slowReply({}));
    const slow = await web.callWithShortTimeout('search_products', { keywords: 'pepsi' });
    expect(slow.meta?.code).toBe('upstream_timeout');
    expect(slow.text).toContain(shortTimeoutMessage);
  });

  it('other 4xx answers are ordinary tool errors in the reference wording, with an echoed key redacted', async () => {
    web
      .fake()
      .queueFault('/request', { status: 400, body: { request_info: { success: false, message: `bad amazon_domain (request ?api_key=${KEY}&type=search)` } } });
    const answer = await call('search_products', { keywords: 'pepsi', amazon_domain: 'amazon.nowhere' });
    expect([answer.isError, answer.meta]).toEqual([true, undefined]);
    expect(answer.text).toMatch(/^Error: 400 \{"request_info"/);
    expect(answer.text).toContain('api_key=[redacted]');
  });

  it('no result and no stderr line contained the key', () => {
    for (const text of web.texts) expect(text).not.toContain(KEY);
    expect(web.server().stderr()).not.toContain(KEY);
  });
});
