// The Rainforest API (api.rainforestapi.com/request), which the reference's amazon server used:
// one GET endpoint, the key as the `api_key` query parameter, `type` selecting search or product.
// Failures: 401 (bad key) and 402 (no credits left) are credential problems, 429 a rate limit,
// 5xx a server failure; other 4xx answers (an unknown ASIN, a bad parameter) are ordinary tool
// errors worded as the reference worded them ("Error: <status> <body>").
import { createHttpClient, upstreamBaseUrl } from '../shared/http-client.js';
import { UpstreamClientError, UpstreamError, requireCredential } from '../shared/upstream-error.js';

const SERVER = 'amazon';
export const KEY_NAMES = ['RAINFOREST_API_KEY'] as const;

const http = createHttpClient({ server: SERVER });

export async function rainforest<T>(params: Record<string, string | number>): Promise<T> {
  const key = requireCredential(KEY_NAMES, SERVER);
  const endpoint = `${upstreamBaseUrl('M3_UPSTREAM_RAINFOREST_URL', 'https://api.rainforestapi.com')}/request`;
  try {
    return (await http.getJson<T>(endpoint, { query: { api_key: key, ...params } })).body;
  } catch (error) {
    if (!(error instanceof UpstreamClientError)) throw error;
    if (error.status === 402) {
      throw new UpstreamError('upstream_auth', `${error.upstream} refused the request: the account has no credits left (HTTP 402)`, {
        status: 402,
        upstream: error.upstream,
      });
    }
    throw new Error(`Error: ${error.status} ${error.body}`);
  }
}
