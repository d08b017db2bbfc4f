// The Reddit server as a real child process against loopback fakes of www.reddit.com (OAuth
// token endpoint) and oauth.reddit.com: the refresh-token grant with basic auth, one cached token
// for many calls, a 401 mid-way refreshed once, all 55 GT calls in the reference's text layout,
// and typed failures that never show the client secret, the refresh token or the access token.
import { describe, expect, it } from 'vitest';
import { groundTruthCalls, loadFixture, missingSharedData, useWebServer } from '../../support/keyed-web-server.js';

const CLIENT_ID = 'reddit-client-id-9k2';
const CLIENT_SECRET = 'reddit-client-secret-Zq81x';
const REFRESH = 'reddit-refresh-token-77ab';
let issued = 0;

const hotText =
  '- Grew my first pineapple 🍍 after two years!\n  Score: 1532 | Comments: 87\n  Author: tropical_thumb\n  Link: https://reddit.com/r/pineapple/comments/1abc001/grew_my_first_pineapple_after_two_years/\n\n' +
  '- Does pineapple on pizza count as a fruit serving?\n  Score: 0 | Comments: 12\n  Author: None\n  Link: https://reddit.com/r/pineapple/comments/1abc002/does_pineapple_on_pizza_count/\n';

const tokenRequests = () => web.fake().requestsTo('/www/api/v1/access_token').length;

const web = useWebServer('reddit', {
  routes: () => [
    {
      path: '/www/api/v1/access_token',
      method: 'POST',
      reply: () => {
        issued += 1;
        return { body: { access_token: `access-token-${issued}-secretish`, token_type: 'bearer', expires_in: 86400, scope: '*' } };
      },
    },
    { path: /^\/oauth\/r\/[^/]+\/hot$/, reply: { body: loadFixture('reddit', 'hot') } },
    { path: /^\/oauth\/comments\/[^/]+$/, reply: { body: loadFixture('reddit', 'comments') } },
  ],
  env: (url) => ({
    REDDIT_CLIENT_ID: CLIENT_ID,
    REDDIT_CLIENT_SECRET: CLIENT_SECRET,
    REDDIT_REFRESH_TOKEN: REFRESH,
    M3_UPSTREAM_REDDIT_AUTH_URL: `${url}/www`,
    M3_UPSTREAM_REDDIT_URL: `${url}/oauth`,
  }),
});
const call = web.call;

describe('Reddit-MCP-Server/search_hot_posts', () => {
  it('answers all 55 GT calls in the reference layout with one cached token from the refresh-token grant', async (context) => {
    const calls = groundTruthCalls('Reddit-MCP-Server/search_hot_posts');
    if (!calls) return context.skip(missingSharedData);
    expect(calls.length).toBe(55);
    for (const { arguments: args } of calls) {
      const answer = await call('search_hot_posts', args);
      expect(answer.isError, answer.text).toBe(false);
      expect(answer.text).toBe(hotText);
      const sent = web
        .fake()
        .requestsTo(/^\/oauth\/r\//)
        .at(-1);
      expect(sent?.path).toBe(`/oauth/r/${encodeURIComponent(String(args.subreddit))}/hot`); // e.g. "water bottle"
      expect(sent?.query).toEqual({ limit: String(args.limit), raw_json: '1' });
      expect(sent?.headers.authorization).toBe('bearer access-token-1-secretish');
    }
    expect(tokenRequests()).toBe(1);
    const grant = web.fake().requestsTo('/www/api/v1/access_token')[0];
    expect(grant?.headers.authorization).toBe(`Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`);
    expect(Object.fromEntries(new URLSearchParams(grant?.body))).toEqual({ grant_type: 'refresh_token', refresh_token: REFRESH });
  });

  it('refreshes the token once on a 401 and repeats the request; a second 401 is an auth failure', async () => {
    const before = tokenRequests();
    web.fake().queueFault(/^\/oauth\/r\//, { status: 401, body: { message: 'Unauthorized', error: 401 } });
    const answer = await call('search_hot_posts', { subreddit: 'pineapple', limit: 2 });
    expect(answer.text).toBe(hotText);
    expect(tokenRequests()).toBe(before + 1);
    expect(
      web
        .fake()
        .requestsTo(/^\/oauth\/r\//)
        .at(-1)?.headers.authorization,
    ).toBe(`bearer access-token-${issued}-secretish`);
    web.fake().queueFault(/^\/oauth\/r\//, { status: 401, body: { message: 'Unauthorized', error: 401 } }, 2);
    const denied = await call('search_hot_posts', { subreddit: 'pineapple' });
    expect(denied.meta).toMatchObject({ code: 'upstream_auth', status: 401 });
  });

  it('a bad refresh token (HTTP 200 with invalid_grant) and a refused client are auth failures', async () => {
    web.fake().queueFault(/^\/oauth\/r\//, { status: 401, body: { message: 'Unauthorized', error: 401 } });
    web.fake().queueFault('/www/api/v1/access_token', { body: { error: 'invalid_grant' } });
    const badGrant = await call('search_hot_posts', { subreddit: 'pineapple' });
    expect(badGrant.meta?.code).toBe('upstream_auth');
    expect(badGrant.text).toContain('invalid_grant');
    web.fake().queueFault('/www/api/v1/access_token', { status: 401, body: { message: 'Unauthorized', error: 401 } });
    expect((await call('search_hot_posts', { subreddit: 'pineapple' })).meta?.code).toBe('upstream_auth');
  });

  it('an unknown or private subreddit is an ordinary error in the reference words; 429 and 500 are typed', async () => {
    web.fake().queueFault(/^\/oauth\/r\//, { status: 404, body: { reason: 'not_found', message: 'Not Found', error: 404 } });
    const missing = await call('search_hot_posts', { subreddit: 'no_such_sub_zz' });
    expect([missing.isError, missing.meta, missing.text]).toEqual([true, undefined, 'Error: Reddit API returned 404']);
    web.fake().queueFault(/^\/oauth\/r\//, { status: 403, body: { reason: 'private', message: 'Forbidden', error: 403 } });
    expect((await call('search_hot_posts', { subreddit: 'secret_club' })).text).toBe('Error: Reddit API returned 403');
    web.fake().queueFault(/^\/oauth\/r\//, { status: 403, body: { message: 'Forbidden', error: 403 } });
    expect((await call('search_hot_posts', { subreddit: 'pineapple' })).meta?.code).toBe('upstream_auth');
    web.fake().queueFault(/^\/oauth\/r\//, { status: 429, headers: { 'retry-after': '7' }, body: { message: 'Too Many Requests', error: 429 } });
    expect((await call('search_hot_posts', { subreddit: 'pineapple' })).meta).toMatchObject({ code: 'upstream_rate_limited', retryAfterSec: 7 });
    web.fake().queueFault(/^\/oauth\/r\//, { status: 500, body: '<html>down</html>' });
    expect((await call('search_hot_posts', { subreddit: 'pineapple' })).meta?.code).toBe('upstream_server_error');
    web.fake().queueFault(/^\/oauth\/r\//, { body: { kind: 'Listing', data: { children: [] } } });
    expect((await call('search_hot_posts', { subreddit: 'empty_sub' })).text).toBe('No results found.');
  });
});

describe('Reddit-MCP-Server/get_post_content', () => {
  it('prints the post, then t1 comments cut to 200 characters (code points), skipping "more" stubs', async () => {
    const answer = await call('get_post_content', { post_id: '1abc002', comment_limit: 3 });
    expect(answer.isError, answer.text).toBe(false);
    const sent = web
      .fake()
      .requestsTo(/^\/oauth\/comments\//)
      .at(-1);
    expect([sent?.path, sent?.query]).toEqual(['/oauth/comments/1abc002', { limit: '3', depth: '2', raw_json: '1' }]);
    expect(answer.text).toBe(
      '**Does pineapple on pizza count as a fruit serving?**\nAuthor: pizza_fan\nScore: 42\nContent: Asking for a friend.\n\nComments:\n\n' +
        `- nutritionist_nan: Technically a little, but the cheese wins.\n- long_writer: ${'🍍'.repeat(150)}${'x'.repeat(50)}`,
    );
    web.fake().queueFault(/^\/oauth\/comments\//, { body: [] });
    expect((await call('get_post_content', { post_id: 'gone' })).text).toBe('No post data found.');
  });

  it('no result and no stderr line contained a credential or the access token', () => {
    for (const text of web.texts) for (const secret of [CLIENT_SECRET, REFRESH, 'access-token-']) expect(text).not.toContain(secret);
    for (const secret of [CLIENT_ID, CLIENT_SECRET, REFRESH, 'access-token-']) expect(web.server().stderr()).not.toContain(secret);
  });
});
