// The upstreams of the nixos server and how it reaches them: the search.nixos.org Elasticsearch
// backend (HTTP basic auth with the public credentials the search.nixos.org web frontend ships,
// which the reference server hard-codes too), the Home Manager and nix-darwin option pages, and
// nixhub.io.
//
// Environment (the server's own env, see mcp_servers.json):
//   M3_UPSTREAM_NIXOS_SEARCH_URL   default https://search.nixos.org/backend
//   M3_NIXOS_SEARCH_USER, M3_NIXOS_SEARCH_PASSWORD   default: the public frontend credentials
//   M3_UPSTREAM_HOME_MANAGER_URL   default https://nix-community.github.io (page /home-manager/options.xhtml)
//   M3_UPSTREAM_NIX_DARWIN_URL     default https://nix-darwin.github.io (page /nix-darwin/manual/index.html)
//   M3_UPSTREAM_NIXHUB_URL         default https://www.nixhub.io
//
// A 4xx answer the reference reported in the words of Python's requests ("404 Client Error: Not
// Found for url: ...") becomes a `ClientHttpError` with that text; 401/403/429/5xx, network
// failures and timeouts stay typed upstream errors.
import { STATUS_CODES } from 'node:http';
import { createHttpClient, upstreamBaseUrl, type HttpClient, type RequestOptions } from '../shared/http-client.js';
import { UpstreamClientError } from '../shared/upstream-error.js';

export const NIXOS_SERVER = 'nixos';

/** The public credentials of the search.nixos.org frontend (also in the reference server). */
const PUBLIC_SEARCH_USER = 'aWVSALXpZv';
const PUBLIC_SEARCH_PASSWORD = 'X8gPHnzL52wFEekuxsfQ9cSh';

export class ClientHttpError extends Error {
  constructor(
    readonly status: number,
    readonly url: string,
  ) {
    super(`${status} Client Error: ${STATUS_CODES[status] ?? ''} for url: ${url}`);
    this.name = 'ClientHttpError';
  }
}

interface NixosUpstreams {
  searchBase: string;
  homeManagerUrl: string;
  darwinUrl: string;
  nixhubBase: string;
}

export class NixosHttp {
  readonly urls: NixosUpstreams;
  private readonly http: HttpClient;
  private readonly authorization: string;

  constructor(env: NodeJS.ProcessEnv = process.env) {
    this.http = createHttpClient({ server: NIXOS_SERVER, env });
    this.urls = {
      searchBase: upstreamBaseUrl('M3_UPSTREAM_NIXOS_SEARCH_URL', 'https://search.nixos.org/backend', env),
      homeManagerUrl: `${upstreamBaseUrl('M3_UPSTREAM_HOME_MANAGER_URL', 'https://nix-community.github.io', env)}/home-manager/options.xhtml`,
      darwinUrl: `${upstreamBaseUrl('M3_UPSTREAM_NIX_DARWIN_URL', 'https://nix-darwin.github.io', env)}/nix-darwin/manual/index.html`,
      nixhubBase: upstreamBaseUrl('M3_UPSTREAM_NIXHUB_URL', 'https://www.nixhub.io', env),
    };
    const user = env.M3_NIXOS_SEARCH_USER?.trim() || PUBLIC_SEARCH_USER;
    const password = env.M3_NIXOS_SEARCH_PASSWORD?.trim() || PUBLIC_SEARCH_PASSWORD;
    this.authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  }

  private async send<T>(url: string, kind: 'json' | 'text', options: RequestOptions): Promise<{ status: number; body: T }> {
    try {
      const response = await this.http.request<T>(url, kind, options);
      return { status: response.status, body: response.body };
    } catch (error) {
      if (error instanceof UpstreamClientError) throw new ClientHttpError(error.status, url);
      throw error;
    }
  }

  /** POST a query to `<backend>/<index>/<endpoint>` (`_search` or `_count`). */
  backend(index: string, endpoint: '_search' | '_count', body: unknown): Promise<{ status: number; body: unknown }> {
    return this.send(`${this.urls.searchBase}/${index}/${endpoint}`, 'json', { method: 'POST', json: body, headers: { authorization: this.authorization } });
  }

  /** GET an option page as text; the Home Manager page is several MB, fetched per call as the reference did. */
  async page(url: string): Promise<string> {
    return (await this.send<string>(url, 'text', { maxBytes: 64 * 1024 * 1024 })).body;
  }

  /**
   * GET nixhub's JSON for a package as text (the nixhub tools parse it); 404 is an answer, not a
   * failure, and its body need not be JSON.
   */
  async nixhub(packageName: string): Promise<{ status: number; body: string; upstream: string }> {
    const url = `${this.urls.nixhubBase}/packages/${packageName}?_data=routes%2F_nixhub.packages.%24pkg._index`;
    const response = await this.send<string>(url, 'text', { headers: { accept: 'application/json' }, acceptStatus: [404] });
    return { ...response, upstream: new URL(url).hostname };
  }
}
