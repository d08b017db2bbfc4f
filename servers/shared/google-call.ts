// Google Maps Platform's failure shapes as typed errors, for every server on a Google API
// (google-maps, google-air):
//   - legacy web services (Geocoding, Directions, ...) answer HTTP 200 with a `status` field:
//     REQUEST_DENIED is a key problem, OVER_QUERY_LIMIT a quota problem, UNKNOWN_ERROR a server
//     problem; ZERO_RESULTS / NOT_FOUND / INVALID_REQUEST are answers and stay in the result,
//     as the reference returned them;
//   - v1 APIs (Places, Routes, Air Quality) answer 4xx with {error:{code,message,status}}; an
//     invalid key is a 400 with reason API_KEY_INVALID, which is infrastructure, not the model's fault.
// Other 4xx answers are ordinary tool errors worded as FastMCP worded the reference's exception
// ("Error executing tool <name>: HTTP <status> at <endpoint>: <body>").
import type { HttpResponse } from './http-client.js';
import { UpstreamClientError, UpstreamError } from './upstream-error.js';

function errorBody(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return JSON.stringify({ text: text.slice(0, 500) });
  }
}

/** Runs one Google request and maps its failures (see the header). */
export async function callGoogle<T>(tool: string, endpoint: string, send: () => Promise<HttpResponse<T>>): Promise<T> {
  let response: HttpResponse<T>;
  try {
    response = await send();
  } catch (error) {
    if (!(error instanceof UpstreamClientError)) throw error;
    if (/API_KEY_INVALID|API key not valid|API_KEY_SERVICE_BLOCKED/.test(error.body)) {
      throw new UpstreamError('upstream_auth', `${error.upstream} refused the API key (HTTP ${error.status}): ${errorBody(error.body)}`, {
        status: error.status,
        upstream: error.upstream,
      });
    }
    throw new Error(`Error executing tool ${tool}: HTTP ${error.status} at ${endpoint}: ${errorBody(error.body)}`);
  }
  checkLegacyStatus(response.body, new URL(endpoint).hostname);
  return response.body;
}

function checkLegacyStatus(body: unknown, upstream: string): void {
  if (!body || typeof body !== 'object') return;
  const { status, error_message: message } = body as { status?: unknown; error_message?: unknown };
  const detail = typeof message === 'string' && message ? `: ${message}` : '';
  if (status === 'REQUEST_DENIED') throw new UpstreamError('upstream_auth', `${upstream} denied the request (REQUEST_DENIED)${detail}`, { upstream });
  if (status === 'OVER_QUERY_LIMIT' || status === 'OVER_DAILY_LIMIT') {
    throw new UpstreamError('upstream_rate_limited', `${upstream} refused the request: quota exceeded (${status})${detail}`, { upstream });
  }
  if (status === 'UNKNOWN_ERROR') throw new UpstreamError('upstream_server_error', `${upstream} failed to answer (UNKNOWN_ERROR)${detail}`, { upstream });
}
