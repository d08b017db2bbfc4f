// The nixhub.io tools: a package's version history with the nixpkgs commits that carry each
// version, and finding one version. A 404 is the reference's NOT_FOUND answer; a 5xx is a typed
// server error, except for the odd names the reference knew nixhub answers 500 for.
import { z } from 'zod';
import { parseJsonText } from '../shared/http-body.js';
import { pythonGet, pythonStr, pythonTruthy } from '../shared/python-format.js';
import { UpstreamError } from '../shared/upstream-error.js';
import { answer, joinStripped, nixosError, type NixosContext, type NixosTool } from './text.js';

const validName = /^[a-zA-Z0-9\-_.]+$/;
const commitHash = /^[a-fA-F0-9]{40}$/;
const str = (record: unknown, key: string) => pythonStr(pythonGet(record, key, '') ?? '');
const list = (record: unknown, key: string): unknown[] => {
  const value = pythonGet(record, key, []);
  return Array.isArray(value) ? value : [];
};

/** `datetime.fromisoformat(t.replace("Z", "+00:00")).strftime("%Y-%m-%d %H:%M UTC")`, else the text. */
function formatUpdated(value: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::\d{2}(?:[.,]\d+)?)?)?(?:Z|[+-]\d{2}:?\d{2})?$/.exec(value);
  return match ? `${match[1]} ${match[2] ?? '00'}:${match[3] ?? '00'} UTC` : value;
}

type Fetched = { kind: 'package'; releases: unknown[]; summary: string } | { kind: 'answer'; result: ReturnType<typeof nixosError> };

async function fetchPackage(context: NixosContext, packageName: string, lookupName: string, oddNamesAreMissing: boolean): Promise<Fetched> {
  let response: { status: number; body: string; upstream: string };
  try {
    response = await context.http.nixhub(lookupName);
  } catch (error) {
    // nixhub answers 500 for names it has never seen when they look unusual.
    const odd = packageName.length > 30 || (packageName.match(/-/g) ?? []).length > 5;
    if (oddNamesAreMissing && odd && error instanceof UpstreamError && error.code === 'upstream_server_error') {
      return { kind: 'answer', result: nixosError(`Package '${packageName}' not found in NixHub`, 'NOT_FOUND') };
    }
    throw error;
  }
  if (response.status === 404) return { kind: 'answer', result: nixosError(`Package '${packageName}' not found in NixHub`, 'NOT_FOUND') };
  const { body: text, status, upstream } = response;
  const data = parseJsonText({ text, status, upstream }, { lossless: true, describe: ({ reason }) => `Failed to parse NixHub response: ${reason}` });
  // A semantic check in the reference's words: the package page is one JSON object.
  if (data === null || typeof data !== 'object' || Array.isArray(data))
    throw new UpstreamError('upstream_bad_response', 'Invalid response format from NixHub', { upstream });
  return { kind: 'package', releases: list(data, 'releases'), summary: str(data, 'summary') };
}

function commitLines(platforms: unknown[], onValid: (hash: string, attribute: string) => string[], onInvalid?: (hash: string) => string[]): string[] {
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const platform of platforms) {
    const hash = str(platform, 'commit_hash');
    if (!hash || seen.has(hash)) continue;
    seen.add(hash);
    if (commitHash.test(hash)) lines.push(...onValid(hash, str(platform, 'attribute_path')));
    else if (onInvalid) lines.push(...onInvalid(hash));
  }
  return lines;
}

function releaseLines(release: unknown, packageName: string): string[] {
  const lines = [`• Version ${pythonStr(pythonGet(release, 'version', 'unknown'))}`];
  const updated = str(release, 'last_updated');
  if (updated) lines.push(`  Last updated: ${formatUpdated(updated)}`);
  const summary = str(release, 'platforms_summary');
  if (summary) lines.push(`  Platforms: ${summary}`);
  lines.push(
    ...commitLines(
      list(release, 'platforms'),
      (hash, attribute) => [`  Nixpkgs commit: ${hash}`, ...(attribute && attribute !== packageName ? [`  Attribute: ${attribute}`] : [])],
      (hash) => [`  Nixpkgs commit: ${hash} (warning: invalid format)`],
    ),
  );
  return lines;
}

async function packageVersions(context: NixosContext, args: Record<string, unknown>) {
  const name = String(args.package_name ?? '');
  const limit = Number(args.limit ?? 10);
  if (!name.trim()) return nixosError('Package name is required');
  if (!validName.test(name)) return nixosError('Invalid package name. Only letters, numbers, hyphens, underscores, and dots are allowed');
  if (!(limit >= 1 && limit <= 50)) return nixosError('Limit must be between 1 and 50');
  const fetched = await fetchPackage(context, name, name, true);
  if (fetched.kind === 'answer') return fetched.result;
  if (fetched.releases.length === 0) return answer(`Package: ${name}\nNo version history available in NixHub`);
  const shown = fetched.releases.slice(0, limit);
  const lines = [`Package: ${name}`, ...(fetched.summary ? [`Description: ${fetched.summary}`] : []), `Total versions: ${fetched.releases.length}`, ''];
  lines.push(`Version history (showing ${shown.length} of ${fetched.releases.length}):\n`);
  for (const release of shown) lines.push(...releaseLines(release, name), '');
  // The reference read platforms[0]; an empty platform list counts as "no commit" here.
  if (shown.some((release) => pythonTruthy(pythonGet(list(release, 'platforms')[0], 'commit_hash', null)))) {
    lines.push('To use a specific version in your Nix configuration:', '1. Pin nixpkgs to the commit hash', '2. Use the attribute path to install the package');
  }
  return answer(joinStripped(lines));
}

/** `_version_key`: the numeric prefixes of the first three dot-separated parts. */
function versionKey(version: string): [number, number, number] {
  const parts = version
    .split('.')
    .slice(0, 3)
    .map((part) => Number(/^\d*/.exec(part)?.[0] || 0));
  return [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0];
}

function foundLines(packageName: string, version: string, release: unknown): string {
  const lines = [`✓ Found ${packageName} version ${version}\n`];
  const updated = str(release, 'last_updated');
  if (updated) lines.push(`Last updated: ${formatUpdated(updated)}`);
  const summary = str(release, 'platforms_summary');
  if (summary) lines.push(`Platforms: ${summary}`);
  const platforms = list(release, 'platforms');
  if (platforms.length > 0) {
    lines.push('\nNixpkgs commits:', ...commitLines(platforms, (hash, attribute) => [`• ${hash}`, ...(attribute ? [`  Attribute: ${attribute}`] : [])]));
  }
  lines.push('\nTo use this version:', '1. Pin nixpkgs to one of the commit hashes above', '2. Install using the attribute path');
  return lines.join('\n');
}

function notFoundLines(packageName: string, version: string, versions: string[]): string {
  const lines = [`✗ ${packageName} version ${version} not found in NixHub\n`];
  if (versions.length === 0) return lines.join('\n');
  lines.push(`Available versions (checked ${versions.length} total):`);
  const compare = (a: string, b: string) => {
    const [x, y] = [versionKey(a), versionKey(b)];
    return y[0] - x[0] || y[1] - x[1] || y[2] - x[2];
  };
  const sorted = [...versions].sort(compare);
  const newest = sorted[0] ?? '';
  const oldest = sorted.at(-1) ?? '';
  lines.push(`• Newest: ${newest}`, `• Oldest: ${oldest}`);
  const majors = [...new Set(versions.map((entry) => entry.split('.')[0] ?? ''))].sort().reverse();
  if (majors.length > 0) lines.push(`• Major versions available: ${majors.join(', ')}`);
  const [requested, old] = [version.split('.'), oldest.split('.')];
  const ints = [requested[0], requested[1], old[0], old[1]].map((part) => (part !== undefined && /^\s*[+-]?\d+\s*$/.test(part) ? Number(part) : Number.NaN));
  const [reqMajor = Number.NaN, reqMinor = Number.NaN, oldMajor = Number.NaN, oldMinor = Number.NaN] = ints;
  if (requested.length >= 2 && old.length >= 2 && ints.every(Number.isFinite) && (reqMajor < oldMajor || (reqMajor === oldMajor && reqMinor < oldMinor))) {
    lines.push(`\nVersion ${version} is older than the oldest available (${oldest})`, 'This version may have been removed after reaching end-of-life.');
  }
  lines.push(
    '\nAlternatives:',
    '• Use a newer version if possible',
    '• Build from source with a custom derivation',
    '• Use Docker/containers with the specific version',
  );
  lines.push('• Find an old nixpkgs commit from before the version was removed');
  return lines.join('\n');
}

async function findVersion(context: NixosContext, args: Record<string, unknown>) {
  const name = String(args.package_name ?? '');
  const version = String(args.version ?? '');
  if (!name.trim()) return nixosError('Package name is required');
  if (!version.trim()) return nixosError('Version is required');
  if (!validName.test(name)) return nixosError('Invalid package name. Only letters, numbers, hyphens, underscores, and dots are allowed');
  const lookup = name === 'python' ? 'python3' : name === 'python2' ? 'python' : name;
  // The reference fetched the same page three times (limits 10, 25, 50); one fetch gives the
  // same releases, scanned with the same widening limits.
  const fetched = await fetchPackage(context, name, lookup, false);
  if (fetched.kind === 'answer') return fetched.result;
  const seen: string[] = [];
  for (const limit of [10, 25, 50]) {
    for (const release of fetched.releases.slice(0, limit)) {
      const current = str(release, 'version');
      if (current && !seen.includes(current)) seen.push(current);
      if (current === version) return answer(foundLines(name, version, release));
    }
  }
  return answer(notFoundLines(name, version, seen));
}

export const nixhubTools: NixosTool[] = [
  {
    name: 'nixhub_package_versions',
    description:
      'Get NixHub.io version history and commit hashes for a package.\nArgs:\n  package_name (str): Package name to query.\n  limit (int): Maximum number of versions to return (1–50).\nReturns:\n  result (str): Plain-text summary of version history and related commits.',
    shape: { package_name: z.string(), limit: z.number().int().default(10) },
    run: packageVersions,
  },
  {
    name: 'nixhub_find_version',
    description:
      'Find a specific package version in NixHub and show commit hashes.\nArgs:\n  package_name (str): Package name to query.\n  version (str): Exact version string to search for.\nReturns:\n  result (str): Plain-text description of the version and commit or a helpful fallback message.',
    shape: { package_name: z.string(), version: z.string() },
    run: findVersion,
  },
];
