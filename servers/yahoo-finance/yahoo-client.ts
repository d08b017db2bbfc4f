// The Yahoo Finance HTTP endpoints yfinance 0.2.x calls, with its cookie-and-crumb handshake
// ("basic" strategy): GET fc.yahoo.com for the session cookie, GET query1 /v1/test/getcrumb with
// it for the crumb, then every API request carries the cookie and `crumb=`. A 401 (Yahoo's
// "Invalid Crumb") renews the pair once. When the handshake fails the requests go out without
// a crumb, as yfinance then also tries. JSON is parsed keeping int vs float (Python's view).
// Base URLs: M3_UPSTREAM_YAHOO_QUERY1_URL (https://query1.finance.yahoo.com),
// M3_UPSTREAM_YAHOO_QUERY2_URL (https://query2.finance.yahoo.com), M3_UPSTREAM_YAHOO_COOKIE_URL
// (https://fc.yahoo.com), M3_UPSTREAM_YAHOO_ROOT_URL (https://finance.yahoo.com, news).
import { parseJsonText, type UpstreamText } from '../shared/http-body.js';
import { createHttpClient, upstreamBaseUrl, type HttpClient } from '../shared/http-client.js';
import { UpstreamClientError, UpstreamError } from '../shared/upstream-error.js';
import { requestSecrets } from '../shared/vendor-message.js';

export type YahooHost = 'query1' | 'query2' | 'root';

const defaults: Record<YahooHost, [string, string]> = {
  query1: ['M3_UPSTREAM_YAHOO_QUERY1_URL', 'https://query1.finance.yahoo.com'],
  query2: ['M3_UPSTREAM_YAHOO_QUERY2_URL', 'https://query2.finance.yahoo.com'],
  root: ['M3_UPSTREAM_YAHOO_ROOT_URL', 'https://finance.yahoo.com'],
};

/** A 4xx Yahoo answered for what was asked (unknown symbol, bad date); its body is kept for the caller. */
export class YahooNotFound extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`Yahoo answered HTTP ${status}`);
  }
}

export function yahooUrl(host: YahooHost, path: string): URL {
  const [name, fallback] = defaults[host];
  return new URL(`${upstreamBaseUrl(name, fallback)}${path}`);
}

export class YahooClient {
  readonly http: HttpClient = createHttpClient({ server: 'yahoo-finance' });
  private session: Promise<{ cookie: string; crumb: string | undefined }> | undefined;

  private async handshake(): Promise<{ cookie: string; crumb: string | undefined }> {
    const cookieUrl = upstreamBaseUrl('M3_UPSTREAM_YAHOO_COOKIE_URL', 'https://fc.yahoo.com');
    let cookie = '';
    try {
      const response = await this.http.getText(cookieUrl, { acceptStatus: [404] });
      cookie = response.headers
        .getSetCookie()
        .map((line) => line.split(';')[0])
        .filter(Boolean)
        .join('; ');
    } catch (error) {
      if (!(error instanceof UpstreamClientError)) throw error;
    }
    let crumb: string | undefined;
    try {
      const text = (await this.http.getText(yahooUrl('query1', '/v1/test/getcrumb').href, cookie ? { headers: { cookie } } : {})).body.trim();
      crumb = text && !text.includes('<html') ? text : undefined;
    } catch (error) {
      if (!(error instanceof UpstreamClientError) && !(error instanceof UpstreamError && error.code === 'upstream_auth')) throw error;
    }
    return { cookie, crumb };
  }

  private async credentials(renew: boolean): Promise<{ cookie: string; crumb: string | undefined }> {
    if (!this.session || renew) this.session = this.handshake();
    try {
      return await this.session;
    } catch (error) {
      this.session = undefined;
      throw error;
    }
  }

  private async send(method: 'GET' | 'POST', url: URL, query: Record<string, string>, body: unknown, renew: boolean): Promise<UpstreamText> {
    const { cookie, crumb } = await this.credentials(renew);
    const target = new URL(url);
    for (const [key, value] of Object.entries(query)) target.searchParams.set(key, value);
    if (crumb) target.searchParams.set('crumb', crumb);
    const headers = cookie ? { cookie } : undefined;
    try {
      const response = await this.http.request<string>(target.href, 'text', {
        method,
        ...(headers ? { headers } : {}),
        ...(body !== undefined ? { json: body } : {}),
      });
      const secrets = requestSecrets(headers, Object.fromEntries(target.searchParams));
      return { text: response.body, upstream: target.hostname, status: response.status, secrets };
    } catch (error) {
      if (error instanceof UpstreamClientError) throw new YahooNotFound(error.status, error.body);
      throw error;
    }
  }

  /** The body of a Yahoo API call (crumb added, renewed once after a 401). */
  private async answer(url: URL, query: Record<string, string>, body: unknown): Promise<UpstreamText> {
    const method = body === undefined ? 'GET' : 'POST';
    try {
      return await this.send(method, url, query, body, false);
    } catch (error) {
      if (error instanceof UpstreamError && error.code === 'upstream_auth' && error.status === 401) return this.send(method, url, query, body, true);
      throw error;
    }
  }

  /** The body text of a Yahoo API call. */
  async text(url: URL, query: Record<string, string> = {}, body?: unknown): Promise<string> {
    return (await this.answer(url, query, body)).text;
  }

  /** The parsed body (numbers as lossless-json numbers); a body that is not JSON is an outage. */
  async json(url: URL, query: Record<string, string> = {}, body?: unknown): Promise<unknown> {
    return parseJsonText(await this.answer(url, query, body), { lossless: true });
  }
}
