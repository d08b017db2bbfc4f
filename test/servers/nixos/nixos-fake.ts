// A loopback fake of the nixos server's four upstreams, serving the bodies in ./fixtures: the
// search backend (`_count` by index name, `_search` bodies picked by what the query asks for),
// the Home Manager options page, the nix-darwin manual, and nixhub.io.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'lossless-json';
import { startHttpFake, type FakeReply, type HttpFake, type RecordedRequest } from '../../../servers/shared/http-fake.js';
import { loadRecordedBody } from '../../support/web-server-harness.js';

export const fixtures = path.join(import.meta.dirname, 'fixtures');
const backendBodies = loadRecordedBody(fixtures, 'search-backend.json') as Record<string, unknown>;

/** Indices that exist, with their document counts; every other `_count` is a 404, as on the real backend. */
const indexCounts: Record<string, number> = {
  'latest-44-nixos-unstable': 151234,
  'latest-44-nixos-25.05': 120000,
  'latest-45-nixos-25.05': 90000,
  'latest-44-nixos-25.11': 125000,
  'latest-43-group-manual': 4242,
};

export const json = (body: unknown, status = 200): FakeReply => ({ status, headers: { 'content-type': 'application/json' }, body: stringify(body) ?? '' });

function backend(request: RecordedRequest): FakeReply {
  const [, , index = '', endpoint] = request.path.split('/');
  if (endpoint === '_count') {
    const count = indexCounts[index];
    return count
      ? json({ count, _shards: { total: 1, successful: 1, skipped: 0, failed: 0 } })
      : json({ error: { type: 'index_not_found_exception' }, status: 404 }, 404);
  }
  const body = request.body;
  const key =
    index === 'latest-43-group-manual'
      ? 'flakes'
      : body.includes('services.openssh.enable')
        ? 'openssh_option'
        : body.includes('"wildcard"')
          ? 'options_search'
          : body.includes('package_programs')
            ? 'programs'
            : body.includes('fastapi')
              ? 'fastapi'
              : 'empty';
  return json(backendBodies[key]);
}

export function startNixosFake(): Promise<HttpFake> {
  return startHttpFake([
    { method: 'POST', path: /^\/backend\//, reply: backend },
    {
      path: '/home-manager/options.xhtml',
      reply: { headers: { 'content-type': 'application/xhtml+xml' }, body: readFileSync(path.join(fixtures, 'home-manager-options.xhtml'), 'utf8') },
    },
    {
      path: '/nix-darwin/manual/index.html',
      reply: { headers: { 'content-type': 'text/html' }, body: readFileSync(path.join(fixtures, 'darwin-manual.html'), 'utf8') },
    },
    { path: '/packages/firefox', reply: json(loadRecordedBody(fixtures, 'nixhub-firefox.json')) },
    { path: /^\/packages\//, reply: { status: 404, body: 'Not Found' } },
  ]);
}

/** The server's env pointing every upstream at the fake. */
export function nixosEnv(fake: HttpFake, extra: Record<string, string> = {}): Record<string, string> {
  return {
    M3_UPSTREAM_NIXOS_SEARCH_URL: `${fake.url}/backend`,
    M3_UPSTREAM_HOME_MANAGER_URL: fake.url,
    M3_UPSTREAM_NIX_DARWIN_URL: fake.url,
    M3_UPSTREAM_NIXHUB_URL: fake.url,
    ...extra,
  };
}
