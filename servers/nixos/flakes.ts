// Flake search and flake statistics on the backend's flake index (`latest-43-group-manual`, the
// alias the search.nixos.org web UI uses), grouped and formatted as the reference does.
import { numberValue, pythonGet, pythonLength, pythonSlice, pythonStr, pythonStrip, pythonThousands, pythonTruthy } from '../shared/python-format.js';
import { UpstreamError } from '../shared/upstream-error.js';
import { answer, catchClientErrors, joinStripped, nixosError, type NixosContext } from './text.js';
import { ClientHttpError } from './upstreams.js';

const FLAKE_INDEX = 'latest-43-group-manual';

const noFlakes = (query: string) => `No flakes found matching '${query}'.

Try searching for:
• Popular flakes: nixpkgs, home-manager, flake-utils, devenv
• By owner: nix-community, numtide, cachix
• By topic: python, rust, nodejs, devops

Browse flakes at:
• GitHub: https://github.com/topics/nix-flakes
• FlakeHub: https://flakehub.com/`;

function flakeQuery(query: string): unknown {
  if (pythonStrip(query) === '' || query === '*') return { match_all: {} };
  const nested = (field: string) => ({ nested: { path: 'flake_resolved', query: { term: { [`flake_resolved.${field}`]: query.toLowerCase() } }, boost: 2 } });
  return {
    bool: {
      should: [
        { match: { flake_name: { query, boost: 3 } } },
        { match: { flake_description: { query, boost: 2 } } },
        { match: { package_pname: { query, boost: 1.5 } } },
        { match: { package_description: query } },
        { wildcard: { flake_name: { value: `*${query}*`, boost: 2.5 } } },
        { wildcard: { package_pname: { value: `*${query}*`, boost: 1 } } },
        { prefix: { flake_name: { value: query, boost: 2 } } },
        nested('owner'),
        nested('repo'),
      ],
      minimum_should_match: 1,
    },
  };
}

interface Flake {
  name: string;
  description: string;
  owner: string;
  repo: string;
  url: string;
  type: string;
  packages: Set<string>;
}

const str = (record: unknown, key: string) => pythonStr(pythonGet(record, key, '') ?? '');

/** Groups hits by repository (owner/repo, else URL, else name), collecting package attributes. */
function groupFlakes(hits: unknown[]): Map<string, Flake> {
  const flakes = new Map<string, Flake>();
  for (const hit of hits) {
    const source = pythonGet(hit, '_source', {});
    const flakeName = pythonStrip(str(source, 'flake_name'));
    const pname = str(source, 'package_pname');
    const resolved = pythonGet(source, 'flake_resolved', {});
    if (!flakeName && !pname) continue;
    const description = pythonTruthy(pythonGet(source, 'flake_description', '')) ? str(source, 'flake_description') : str(source, 'package_description');
    const isResolved = resolved !== null && typeof resolved === 'object' && !Array.isArray(resolved);
    const owner = isResolved ? str(resolved, 'owner') : '';
    const repo = isResolved ? str(resolved, 'repo') : '';
    const url = isResolved ? str(resolved, 'url') : '';
    let key: string;
    let entry: Omit<Flake, 'packages'>;
    if (isResolved && (owner || repo || url)) {
      let display = flakeName || pname;
      if (owner && repo) {
        key = `${owner}/${repo}`;
        display = flakeName || repo || pname;
      } else if (url) {
        key = url;
        if (url.includes('/')) display = flakeName || (url.replace(/\/+$/, '').split('/').at(-1) ?? '').replaceAll('.git', '') || pname;
      } else {
        key = flakeName || pname;
        display = key;
      }
      entry = { name: display, description, owner, repo, url, type: str(resolved, 'type') };
    } else if (flakeName) {
      key = flakeName;
      entry = { name: flakeName, description, owner: '', repo: '', url: '', type: '' };
    } else {
      continue; // packages without flake metadata are not listed
    }
    const flake = flakes.get(key) ?? { ...entry, packages: new Set<string>() };
    flakes.set(key, flake);
    const attribute = str(source, 'package_attr_name');
    if (attribute) flake.packages.add(attribute);
  }
  return flakes;
}

function formatFlake(flake: Flake): string[] {
  const lines = [`• ${flake.name}`];
  if (flake.owner && flake.repo) lines.push(`  Repository: ${flake.owner}/${flake.repo}${flake.type ? ` (${flake.type})` : ''}`);
  else if (flake.url) lines.push(`  URL: ${flake.url}`);
  if (flake.description) lines.push(`  ${pythonLength(flake.description) > 200 ? `${pythonSlice(flake.description, 200)}...` : flake.description}`);
  if (flake.packages.size > 0) {
    const sorted = [...flake.packages].sort();
    lines.push(
      flake.packages.size > 5 ? `  Packages: ${sorted.slice(0, 5).join(', ')}, ... (${flake.packages.size} total)` : `  Packages: ${sorted.join(', ')}`,
    );
  }
  lines.push('');
  return lines;
}

export async function searchFlakes(context: NixosContext, query: string, limit: number) {
  if (!(limit >= 1 && limit <= 100)) return nixosError('Limit must be 1-100');
  // The reference's 404 branch tested `e.response and ...`, which is false for any error
  // response, so a 404 surfaced as the raw "404 Client Error ..." text; so does ours.
  return catchClientErrors(async () => {
    const search = { bool: { filter: [{ term: { type: 'package' } }], must: [flakeQuery(query)] } };
    const response = await context.http.backend(FLAKE_INDEX, '_search', { query: search, size: limit * 5, track_total_hits: true });
    const hitsRecord = pythonGet(response.body, 'hits', {});
    const hits = pythonGet(hitsRecord, 'hits', []);
    const total = numberValue(pythonGet(pythonGet(hitsRecord, 'total', {}), 'value', 0)) ?? 0;
    if (!Array.isArray(hits) || hits.length === 0) return answer(noFlakes(query));
    const flakes = groupFlakes(hits);
    const lines = [
      total > flakes.size
        ? `Found ${pythonThousands(total)} total matches (${flakes.size} unique flakes) matching '${query}':\n`
        : `Found ${flakes.size} unique flakes matching '${query}':\n`,
    ];
    for (const flake of flakes.values()) lines.push(...formatFlake(flake));
    return answer(joinStripped(lines));
  });
}

function contributorOf(url: string): string | undefined {
  for (const marker of ['github.com/', 'codeberg.org/', 'sr.ht/~']) {
    if (url.includes(marker)) return url.split(marker)[1]?.split('/')[0];
  }
  return undefined;
}

/** Top five of a count table, largest first (ties keep first-seen order, as Python's sort). */
function topFive(counts: Map<string, number>): Array<[string, number]> {
  return [...counts].sort((a, b) => b[1] - a[1]).slice(0, 5);
}

async function sampleFlakes(context: NixosContext): Promise<{ unique: number; types: string[]; owners: string[] }> {
  try {
    const response = await context.http.backend(FLAKE_INDEX, '_search', {
      size: 10000,
      query: { term: { type: 'package' } },
      _source: ['flake_resolved', 'flake_name', 'package_pname'],
    });
    const hits = pythonGet(pythonGet(response.body, 'hits', {}), 'hits', []);
    const urls = new Set<string>();
    const types = new Map<string, number>();
    const owners = new Map<string, number>();
    for (const hit of Array.isArray(hits) ? hits : []) {
      const resolved = pythonGet(pythonGet(hit, '_source', {}), 'flake_resolved', {});
      if (!resolved || typeof resolved !== 'object' || !Object.hasOwn(resolved, 'url')) continue;
      const url = str(resolved, 'url');
      urls.add(url);
      const type = pythonStr(pythonGet(resolved, 'type', 'unknown'));
      types.set(type, (types.get(type) ?? 0) + 1);
      const owner = contributorOf(url);
      if (owner) owners.set(owner, (owners.get(owner) ?? 0) + 1);
    }
    return {
      unique: urls.size,
      types: topFive(types)
        .filter(([name]) => name)
        .map(([name, count]) => `  - ${name}: ${pythonThousands(count)}`),
      owners: topFive(owners).map(([name, count]) => `  - ${name}: ${pythonThousands(count)} packages`),
    };
  } catch (error) {
    if (error instanceof UpstreamError) throw error;
    return { unique: 0, types: [], owners: [] };
  }
}

export async function flakeStats(context: NixosContext) {
  let total: number;
  try {
    const response = await context.http.backend(FLAKE_INDEX, '_count', { query: { term: { type: 'package' } } });
    total = numberValue(pythonGet(response.body, 'count', 0)) ?? 0;
  } catch (error) {
    if (error instanceof ClientHttpError && error.status === 404) return nixosError('Flake indices not found. Flake search may be temporarily unavailable.');
    if (error instanceof ClientHttpError) return nixosError(error.message);
    throw error;
  }
  const sample = await sampleFlakes(context);
  const lines = ['NixOS Flakes Statistics:', `• Available flakes: ${pythonThousands(total)}`];
  if (sample.unique > 0) lines.push(`• Unique repositories: ${pythonThousands(sample.unique)}`);
  if (sample.types.length > 0) lines.push('• Flake types:', ...sample.types);
  if (sample.owners.length > 0) lines.push('• Top contributors:', ...sample.owners);
  lines.push('\nNote: Flakes are community-contributed and indexed separately from official packages.');
  return answer(lines.join('\n'));
}
