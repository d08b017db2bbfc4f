// NixOS channel discovery, as the reference does it: probe `latest-<generation>-nixos-<version>`
// indices of the search backend with `_count`, keep those with documents, and map the friendly
// names (unstable, stable, beta, 25.05, ...) to index names; fixed fallback names when nothing
// answers. The result is kept for the life of the process, except when every probe failed for
// an infrastructure reason (then the next call probes again instead of living on the fallback).
import { numberValue, pythonThousands } from '../shared/python-format.js';
import { UpstreamError } from '../shared/upstream-error.js';
import type { NixosHttp } from './upstreams.js';

const GENERATIONS = [43, 44, 45, 46];
const VERSIONS = ['unstable', '25.05', '25.11', '26.05', '30.05'];

const FALLBACK_CHANNELS: Readonly<Record<string, string>> = {
  unstable: 'latest-44-nixos-unstable',
  stable: 'latest-44-nixos-25.05',
  '25.05': 'latest-44-nixos-25.05',
  '25.11': 'latest-44-nixos-25.11',
  beta: 'latest-44-nixos-25.05',
};

export interface ChannelState {
  /** Index name → "N documents", in probe order. */
  available: Map<string, string>;
  /** Friendly name → index name, in the reference's insertion order. */
  resolved: Map<string, string>;
  usingFallback: boolean;
}

interface StableCandidate {
  major: number;
  minor: number;
  version: string;
  pattern: string;
  count: number;
}

function resolve(available: Map<string, string>): Map<string, string> {
  const resolved = new Map<string, string>();
  const unstable = [...available.keys()].find((pattern) => pattern.includes('unstable'));
  if (unstable) resolved.set('unstable', unstable);
  const candidates: StableCandidate[] = [];
  for (const [pattern, countText] of available) {
    if (pattern.includes('unstable')) continue;
    const version = pattern.split('-')[3];
    const match = version ? /^(\d+)\.(\d+)$/.exec(version) : null;
    if (!version || !match) continue;
    candidates.push({
      major: Number(match[1]),
      minor: Number(match[2]),
      version,
      pattern,
      count: Number(countText.replaceAll(',', '').replace(' documents', '')),
    });
  }
  if (candidates.length > 0) {
    // sort(key=(major, minor, count), reverse=True) is stable, so ties keep probe order.
    candidates.sort((a, b) => b.major - a.major || b.minor - a.minor || b.count - a.count);
    const [current] = candidates;
    if (current) {
      resolved.set('stable', current.pattern);
      resolved.set(current.version, current.pattern);
    }
    const perVersion = new Map<string, StableCandidate>();
    for (const candidate of candidates) {
      const seen = perVersion.get(candidate.version);
      if (!seen || candidate.count > seen.count) perVersion.set(candidate.version, candidate);
    }
    for (const [version, candidate] of perVersion) resolved.set(version, candidate.pattern);
  }
  const stable = resolved.get('stable');
  if (stable) resolved.set('beta', stable);
  return resolved;
}

export class ChannelCache {
  private state: ChannelState | undefined;

  constructor(private readonly http: NixosHttp) {}

  async get(): Promise<ChannelState> {
    if (this.state) return this.state;
    const patterns = GENERATIONS.flatMap((generation) => VERSIONS.map((version) => `latest-${generation}-nixos-${version}`));
    let infrastructureFailures = 0;
    const counts = await Promise.all(
      patterns.map(async (pattern) => {
        try {
          const response = await this.http.backend(pattern, '_count', { query: { match_all: {} } });
          const count = numberValue((response.body as { count?: unknown } | null)?.count) ?? 0;
          return response.status === 200 && count > 0 ? count : undefined;
        } catch (error) {
          if (error instanceof UpstreamError) infrastructureFailures += 1;
          return undefined;
        }
      }),
    );
    const available = new Map<string, string>();
    patterns.forEach((pattern, index) => {
      const count = counts[index];
      if (count !== undefined) available.set(pattern, `${pythonThousands(count)} documents`);
    });
    const resolved = resolve(available);
    const state: ChannelState =
      resolved.size > 0
        ? { available, resolved, usingFallback: false }
        : { available, resolved: new Map(Object.entries(FALLBACK_CHANNELS)), usingFallback: true };
    if (!(state.usingFallback && infrastructureFailures === patterns.length)) this.state = state;
    return state;
  }
}

/** The reference's "Available channels: ..." hint for an unknown channel name. */
export function channelSuggestions(invalid: string, resolved: Map<string, string>): string {
  const available = [...resolved.keys()];
  const lower = invalid.toLowerCase();
  let suggestions = available.filter((channel) => lower.includes(channel.toLowerCase()) || channel.toLowerCase().includes(lower));
  if (suggestions.length === 0) {
    const versions = available.filter((channel) => channel.includes('.') && /^\d+$/.test(channel.replaceAll('.', '')));
    suggestions = ['unstable', 'stable', 'beta', ...versions.slice(0, 2)].filter((channel) => resolved.has(channel));
    if (suggestions.length === 0) suggestions = available.slice(0, 4);
  }
  return `Available channels: ${suggestions.join(', ')}`;
}
