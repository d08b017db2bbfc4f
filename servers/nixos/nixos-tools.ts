// The NixOS tools on the search.nixos.org backend: package/option/program search, exact
// package/option info, the channel list and per-channel statistics. The ground truth calls
// nixos_search (30 times, packages) and nixos_info (6 times, services.openssh.enable).
import { z } from 'zod';
import { numberValue, pythonGet, pythonStr, pythonStrip, pythonThousands, pythonTruthy } from '../shared/python-format.js';
import { UpstreamError } from '../shared/upstream-error.js';
import { channelSuggestions } from './channels.js';
import { searchFlakes } from './flakes.js';
import { answer, catchClientErrors, joinStripped, nixosError, text, type NixosContext, type NixosTool } from './text.js';

const channelShape = z.string().default('unstable').describe('NixOS channel name such as unstable or stable.');

/** `es_query`: POST a query, return `hits.hits` (a malformed answer reads as no hits). */
async function searchHits(context: NixosContext, index: string, query: unknown, size: number): Promise<unknown[]> {
  const response = await context.http.backend(index, '_search', { query, size });
  const hits = pythonGet(response.body, 'hits', undefined);
  const inner = pythonGet(hits, 'hits', undefined);
  return Array.isArray(inner) ? inner : [];
}

/** The index of a channel, or the reference's "Invalid channel" error text. */
async function channelIndex(context: NixosContext, channel: string): Promise<{ index: string } | { error: string }> {
  const { resolved } = await context.channels.get();
  const index = resolved.get(channel);
  return index ? { index } : { error: `Invalid channel '${channel}'. ${channelSuggestions(channel, resolved)}` };
}

/** Descriptions arrive as `<rendered-html>...</rendered-html>`; the reference stripped the tags. */
function plainDescription(description: string): string {
  if (!description.includes('<rendered-html>')) return description;
  return pythonStrip(
    description
      .replaceAll('<rendered-html>', '')
      .replaceAll('</rendered-html>', '')
      .replace(/<[^>]+>/g, ''),
  );
}

function searchQuery(searchType: string, query: string): unknown {
  if (searchType === 'packages') {
    return {
      bool: {
        must: [{ term: { type: 'package' } }],
        should: [{ match: { package_pname: { query, boost: 3 } } }, { match: { package_description: query } }],
        minimum_should_match: 1,
      },
    };
  }
  if (searchType === 'options') {
    return {
      bool: {
        must: [{ term: { type: 'option' } }],
        should: [{ wildcard: { option_name: `*${query}*` } }, { match: { option_description: query } }],
        minimum_should_match: 1,
      },
    };
  }
  return {
    bool: {
      must: [{ term: { type: 'package' } }],
      should: [{ match: { package_programs: { query, boost: 2 } } }, { match: { package_pname: query } }],
      minimum_should_match: 1,
    },
  };
}

/** `src.get(key, "")`, and whether it is truthy (a null prints "None" but is falsy). */
function optional(source: unknown, key: string): string | undefined {
  const value = pythonGet(source, key, '');
  return pythonTruthy(value) ? pythonStr(value) : undefined;
}

function formatHit(searchType: string, source: unknown, query: string): string[] {
  if (searchType === 'packages') {
    const description = optional(source, 'package_description');
    return [`• ${text(source, 'package_pname')} (${text(source, 'package_pversion')})`, ...(description ? [`  ${description}`] : []), ''];
  }
  if (searchType === 'options') {
    const type = optional(source, 'option_type');
    const raw = optional(source, 'option_description');
    const description = raw === undefined ? undefined : plainDescription(raw);
    return [`• ${text(source, 'option_name')}`, ...(type ? [`  Type: ${type}`] : []), ...(description ? [`  ${description}`] : []), ''];
  }
  const programs = pythonGet(source, 'package_programs', []);
  const matched = (Array.isArray(programs) ? programs : []).map(pythonStr).filter((program) => program.toLowerCase() === query.toLowerCase());
  return matched.flatMap((program) => [`• ${program} (provided by ${text(source, 'package_pname')})`, '']);
}

async function nixosSearch(context: NixosContext, args: Record<string, unknown>) {
  const query = String(args.query);
  const searchType = String(args.search_type ?? 'packages');
  const limit = Number(args.limit ?? 20);
  if (!['packages', 'options', 'programs', 'flakes'].includes(searchType)) return nixosError(`Invalid type '${searchType}'`);
  const channel = await channelIndex(context, String(args.channel ?? 'unstable'));
  if ('error' in channel) return nixosError(channel.error);
  if (!(limit >= 1 && limit <= 100)) return nixosError('Limit must be 1-100');
  if (searchType === 'flakes') return searchFlakes(context, query, limit);
  return catchClientErrors(
    async () => {
      const hits = await searchHits(context, channel.index, searchQuery(searchType, query), limit);
      if (hits.length === 0) return answer(`No ${searchType} found matching '${query}'`);
      const lines = [`Found ${hits.length} ${searchType} matching '${query}':\n`];
      for (const hit of hits) lines.push(...formatHit(searchType, pythonGet(hit, '_source', {}), query));
      return answer(joinStripped(lines));
    },
    (message) => `API error: ${message}`,
  );
}

function formatInfo(type: string, source: unknown): string {
  if (type === 'package') {
    const lines = [`Package: ${text(source, 'package_pname')}`, `Version: ${text(source, 'package_pversion')}`];
    const description = optional(source, 'package_description');
    if (description) lines.push(`Description: ${description}`);
    let homepage = pythonGet(source, 'package_homepage', []);
    if (pythonTruthy(homepage)) {
      if (Array.isArray(homepage)) homepage = homepage[0] ?? '';
      lines.push(`Homepage: ${pythonStr(homepage)}`);
    }
    const licenses = pythonGet(source, 'package_license_set', []);
    if (Array.isArray(licenses) && licenses.length > 0) lines.push(`License: ${licenses.map(pythonStr).join(', ')}`);
    return lines.join('\n');
  }
  const lines = [`Option: ${text(source, 'option_name')}`];
  for (const [label, key] of [
    ['Type', 'option_type'],
    ['Description', 'option_description'],
    ['Default', 'option_default'],
    ['Example', 'option_example'],
  ] as const) {
    const value = optional(source, key);
    if (value) lines.push(`${label}: ${key === 'option_description' ? plainDescription(value) : value}`);
  }
  return lines.join('\n');
}

async function nixosInfo(context: NixosContext, args: Record<string, unknown>) {
  const name = String(args.name);
  const type = String(args.type ?? 'package');
  if (type !== 'package' && type !== 'option') return nixosError("Type must be 'package' or 'option'");
  const channel = await channelIndex(context, String(args.channel ?? 'unstable'));
  if ('error' in channel) return nixosError(channel.error);
  return catchClientErrors(
    async () => {
      const field = type === 'package' ? 'package_pname' : 'option_name';
      const hits = await searchHits(context, channel.index, { bool: { must: [{ term: { type } }, { term: { [field]: name } }] } }, 1);
      if (hits.length === 0) return nixosError(`${type === 'package' ? 'Package' : 'Option'} '${name}' not found`, 'NOT_FOUND');
      return answer(formatInfo(type, pythonGet(hits[0], '_source', {})));
    },
    (message) => `API error: ${message}`,
  );
}

async function nixosChannels(context: NixosContext) {
  const { resolved, available, usingFallback } = await context.channels.get();
  const lines: string[] = usingFallback
    ? [
        '⚠️  WARNING: Using fallback channels (API discovery failed)',
        '    Check network connectivity to search.nixos.org',
        '',
        'NixOS Channels (fallback mode):\n',
      ]
    : ['NixOS Channels (auto-discovered):\n'];
  for (const [name, index] of [...resolved].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const version = index.split('-')[3];
    lines.push(`${name === 'stable' && version !== undefined ? `• ${name} (current: ${version})` : `• ${name}`} → ${index}`);
    if (available.has(index)) lines.push(`  Status: ✓ Available (${available.get(index)})`);
    else lines.push(usingFallback ? '  Status: Fallback (may not be current)' : '  Status: ✗ Unavailable');
    lines.push('');
  }
  if (!usingFallback) {
    const mapped = new Set(resolved.values());
    const extra = [...available.keys()].filter((index) => !mapped.has(index)).sort();
    if (extra.length > 0) lines.push('Additional available channels:', ...extra.map((index) => `• ${index} (${available.get(index)})`));
  }
  lines.push('\nNote: Channels are dynamically discovered.', "'stable' always points to the current stable release.");
  if (usingFallback)
    lines.push('\n⚠️  Fallback channels may not reflect the latest available versions.', '   Please check your network connection to search.nixos.org.');
  return answer(joinStripped(lines));
}

/** A `_count` of one document type; a 4xx or a malformed answer counts 0, as in the reference. */
async function countOf(context: NixosContext, index: string, type: string): Promise<number> {
  try {
    const response = await context.http.backend(index, '_count', { query: { term: { type } } });
    return numberValue(pythonGet(response.body, 'count', 0)) ?? 0;
  } catch (error) {
    if (error instanceof UpstreamError) throw error;
    return 0;
  }
}

async function nixosStats(context: NixosContext, args: Record<string, unknown>) {
  const channelName = String(args.channel ?? 'unstable');
  const channel = await channelIndex(context, channelName);
  if ('error' in channel) return nixosError(channel.error);
  const packages = await countOf(context, channel.index, 'package');
  const options = await countOf(context, channel.index, 'option');
  if (packages === 0 && options === 0) return nixosError('Failed to retrieve statistics');
  return answer(`NixOS Statistics for ${channelName} channel:\n• Packages: ${pythonThousands(packages)}\n• Options: ${pythonThousands(options)}`);
}

export const nixosTools: NixosTool[] = [
  {
    name: 'nixos_search',
    description:
      'Search NixOS packages, options, programs, or flakes.\nArgs:\n  query (str): Search term to match.\n  search_type (str): One of packages, options, programs, or flakes.\n  limit (int): Maximum number of results to return (1–100).\n  channel (str): NixOS channel name such as unstable or stable.\nReturns:\n  result (str): Plain-text summary of matching entries or an error message.',
    shape: { query: z.string(), search_type: z.string().default('packages'), limit: z.number().int().default(20), channel: channelShape },
    run: nixosSearch,
  },
  {
    name: 'nixos_info',
    description:
      'Get detailed information about a NixOS package or option.\nArgs:\n  name (str): Package or option name to look up.\n  type (str): Lookup type, package or option.\n  channel (str): NixOS channel name such as unstable or stable.\nReturns:\n  result (str): Plain-text details for the target or an error message.',
    shape: { name: z.string(), type: z.string().default('package'), channel: channelShape },
    run: nixosInfo,
  },
  {
    name: 'nixos_channels',
    description:
      'List available NixOS channels and their availability status.\nArgs:\nReturns:\n  result (str): Plain-text list of channels, indices, and basic status info.',
    shape: {},
    run: (context) => nixosChannels(context),
  },
  {
    name: 'nixos_stats',
    description:
      'Get high-level statistics for a NixOS channel.\nArgs:\n  channel (str): NixOS channel name such as unstable or stable.\nReturns:\n  result (str): Plain-text summary of package and option counts.',
    shape: { channel: channelShape },
    run: nixosStats,
  },
];
