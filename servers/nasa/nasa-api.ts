// The two upstreams of the nasa-mcp server: api.nasa.gov (every tool but one, with the key as
// the `api_key` query parameter, as the reference sends it) and the NASA Exoplanet Archive.
//
// Environment (the server's own env, see mcp_servers.json):
//   NASA_API_KEY                     optional; DEMO_KEY when unset (rate-limited, as the reference)
//   M3_UPSTREAM_NASA_URL             default https://api.nasa.gov
//   M3_UPSTREAM_NASA_EXOPLANET_URL   default https://exoplanetarchive.ipac.caltech.edu
//
// What the reference showed for a 4xx answer ("HTTP error: 400" plus the body) is returned as an
// `http_error` answer, which the tools turn into an ordinary tool error in the reference's words;
// 401/403/429/5xx, network failures and bodies that are not JSON are typed upstream errors.
import { parseJsonText } from '../shared/http-body.js';
import { createHttpClient, upstreamBaseUrl, type HttpClient, type HttpResponse } from '../shared/http-client.js';
import { parseLosslessJson, pythonSlice } from '../shared/python-format.js';
import { UpstreamClientError, UpstreamError } from '../shared/upstream-error.js';
import { requestSecrets } from '../shared/vendor-message.js';

export const NASA_SERVER = 'nasa-mcp';
const DEMO_KEY = 'DEMO_KEY';

export type NasaAnswer = { kind: 'data'; data: unknown } | { kind: 'http_error'; error: string; details: unknown };

export type QueryParams = Record<string, string | number | undefined>;

interface ExoplanetAnswer {
  status: number;
  contentType: string;
  text: string;
}

/** What the reference put under "details": the error body as JSON, else its first 500 characters. */
function errorDetails(body: string): unknown {
  try {
    return parseLosslessJson(body);
  } catch {
    return pythonSlice(body, 500);
  }
}

export class NasaApi {
  private readonly http: HttpClient;
  private readonly apiBase: string;
  private readonly exoplanetBase: string;
  private readonly apiKey: string;

  constructor(env: NodeJS.ProcessEnv = process.env) {
    this.http = createHttpClient({ server: NASA_SERVER, env });
    this.apiBase = upstreamBaseUrl('M3_UPSTREAM_NASA_URL', 'https://api.nasa.gov', env);
    this.exoplanetBase = upstreamBaseUrl('M3_UPSTREAM_NASA_EXOPLANET_URL', 'https://exoplanetarchive.ipac.caltech.edu', env);
    this.apiKey = env.NASA_API_KEY?.trim() || DEMO_KEY;
  }

  /**
   * The key the EPIC archive links may show. The reference printed its key into those links; a
   * personal key must not reach model transcripts, so they carry the public DEMO_KEY instead.
   */
  get keyForLinks(): string {
    return DEMO_KEY;
  }

  /** GET an api.nasa.gov path; the key is appended last, as the reference's request did. */
  async get(path: string, params: QueryParams = {}): Promise<NasaAnswer> {
    const url = `${this.apiBase}${path}`;
    const upstream = new URL(url).hostname;
    let response: HttpResponse<string>;
    try {
      response = await this.http.getText(url, { query: { ...params, api_key: this.apiKey } });
    } catch (error) {
      if (error instanceof UpstreamClientError) return { kind: 'http_error', error: `HTTP error: ${error.status}`, details: errorDetails(error.body) };
      throw error;
    }
    const contentType = (response.headers.get('content-type') ?? '').toLowerCase();
    if (!contentType.includes('application/json')) {
      throw new UpstreamError('upstream_bad_response', `${upstream} answered with content type '${contentType}' where JSON was expected`, {
        upstream,
        status: response.status,
      });
    }
    // An empty 200 body is read as "no events" (an empty list), not as a broken answer.
    if (response.body.trim() === '') return { kind: 'data', data: [] };
    const secrets = requestSecrets(undefined, { api_key: this.apiKey });
    return { kind: 'data', data: parseJsonText({ text: response.body, upstream, status: response.status, secrets }, { lossless: true }) };
  }

  /** The Exoplanet Archive's legacy API (no key); 4xx answers are returned, not thrown. */
  async exoplanet(params: QueryParams): Promise<ExoplanetAnswer> {
    const url = `${this.exoplanetBase}/cgi-bin/nstedAPI/nph-nstedAPI`;
    try {
      const response = await this.http.getText(url, { query: params });
      return { status: response.status, contentType: (response.headers.get('content-type') ?? '').toLowerCase(), text: response.body };
    } catch (error) {
      if (error instanceof UpstreamClientError) return { status: error.status, contentType: '', text: error.body };
      throw error;
    }
  }
}

/** Thrown when an answer is JSON of the wrong shape; the message is the reference's wording. */
export function unexpectedFormat(message: string): UpstreamError {
  return new UpstreamError('upstream_bad_response', message);
}
