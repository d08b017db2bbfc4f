// URLs an upstream names in its answers (a photo's `urls.full`, a `download_location`, a place
// photo's `photoUri`, a paper's open-access PDF link) reach their hosts through an override like
// every configured base URL does: with the variable set, the URL's origin is swapped for the
// override (path and query kept), so a mirror or a local fake serves them and a test can give
// real-shaped bodies that name the real hosts. A route for any origin ('*') keeps the host as
// the first path segment: `<override>/<host><path>`.

export interface NamedUrlRoute {
  /** e.g. 'https://images.unsplash.com', or '*' for any host. */
  origin: string;
  /** The M3_UPSTREAM_* variable holding the override base URL. */
  env: string;
}

export interface NamedRequest {
  /** The URL to fetch. */
  url: string;
  /**
   * The configured base URL it answers to (the HTTP client's `namedBy`): the override when one
   * applied (configured by the user, so trusted like any base URL), else the API that named it.
   */
  namedBy: string;
}

/** Where to fetch `url`, named by the API at `apiBase`: its override when a route matches and its variable is set. */
export function namedRequest(url: string, routes: readonly NamedUrlRoute[], apiBase: string, env: NodeJS.ProcessEnv = process.env): NamedRequest {
  const parsed = new URL(url);
  for (const route of routes) {
    const base = env[route.env]?.trim().replace(/\/+$/, '');
    if (!base) continue;
    if (route.origin === parsed.origin) return { url: `${base}${parsed.pathname}${parsed.search}`, namedBy: base };
    if (route.origin === '*') return { url: `${base}/${parsed.host}${parsed.pathname}${parsed.search}`, namedBy: base };
  }
  return { url, namedBy: apiBase };
}
