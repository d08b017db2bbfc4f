// Reddit's OAuth API as the reference's reddit server used it: an app-only access token from
// the refresh-token grant (POST <www.reddit.com>/api/v1/access_token, HTTP basic auth with the
// client id and secret), then bearer GETs on oauth.reddit.com. The token is cached until shortly
// before it expires (the reference fetched one per call); a 401 on a listing means it expired or
// was revoked, so it is refreshed once and the request repeated, and a second 401 is an auth failure.
import { createHttpClient, upstreamBaseUrl, type HttpResponse } from '../shared/http-client.js';
import { requireCredentials } from '../shared/keyed-tool.js';
import { UpstreamError } from '../shared/upstream-error.js';

const SERVER = 'Reddit-MCP-Server';
export const KEY_NAMES = ['REDDIT_CLIENT_ID', 'REDDIT_CLIENT_SECRET', 'REDDIT_REFRESH_TOKEN'] as const;

const http = createHttpClient({ server: 'reddit' });
let cached: { token: string; expiresAt: number } | undefined;

async function accessToken(): Promise<string> {
  const creds = requireCredentials(KEY_NAMES, SERVER);
  if (cached && cached.expiresAt > Date.now()) return cached.token;
  const endpoint = `${upstreamBaseUrl('M3_UPSTREAM_REDDIT_AUTH_URL', 'https://www.reddit.com')}/api/v1/access_token`;
  const basic = Buffer.from(`${creds.REDDIT_CLIENT_ID}:${creds.REDDIT_CLIENT_SECRET}`).toString('base64');
  const body = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: creds.REDDIT_REFRESH_TOKEN }).toString();
  const answer = await http.getJson<{ access_token?: unknown; expires_in?: unknown; error?: unknown }>(endpoint, {
    method: 'POST',
    body,
    headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
  });
  const token = answer.body?.access_token;
  if (typeof token !== 'string' || token === '') {
    // Reddit answers a bad refresh token with HTTP 200 and {"error": "invalid_grant"}.
    const reason = typeof answer.body?.error === 'string' ? answer.body.error : 'no access_token in the answer';
    throw new UpstreamError('upstream_auth', `${new URL(endpoint).hostname} refused the OAuth refresh token (${reason})`, {
      upstream: new URL(endpoint).hostname,
    });
  }
  const lifetime = typeof answer.body.expires_in === 'number' ? answer.body.expires_in : 3600;
  cached = { token, expiresAt: Date.now() + Math.max(0, lifetime - 60) * 1000 };
  return token;
}

/** Reasons Reddit gives for a 403/404 on a subreddit or post the model asked for. */
const contentRefusals = new Set(['private', 'banned', 'quarantined', 'gated', 'not_found']);

/**
 * GET on oauth.reddit.com. Returns the parsed body on 200; for a 403/404 about the content
 * itself returns the status, which the tools report in the reference's words.
 */
export async function redditGet<T>(path: string, query: Record<string, string | number>): Promise<{ status: 200; body: T } | { status: number }> {
  const endpoint = `${upstreamBaseUrl('M3_UPSTREAM_REDDIT_URL', 'https://oauth.reddit.com')}${path}`;
  const send = async (): Promise<HttpResponse<unknown>> =>
    http.getJson(endpoint, { query, headers: { authorization: `bearer ${await accessToken()}` }, acceptStatus: [401, 403, 404] });
  let answer = await send();
  if (answer.status === 401) {
    cached = undefined;
    answer = await send();
    if (answer.status === 401)
      throw new UpstreamError('upstream_auth', `${new URL(endpoint).hostname} refused a fresh access token (HTTP 401)`, {
        status: 401,
        upstream: new URL(endpoint).hostname,
      });
  }
  if (answer.status === 403) {
    const reason = (answer.body as { reason?: unknown } | null)?.reason;
    if (typeof reason !== 'string' || !contentRefusals.has(reason)) {
      throw new UpstreamError('upstream_auth', `${new URL(endpoint).hostname} refused the credentials (HTTP 403)`, {
        status: 403,
        upstream: new URL(endpoint).hostname,
      });
    }
  }
  return answer.status === 200 ? { status: 200, body: answer.body as T } : { status: answer.status };
}
