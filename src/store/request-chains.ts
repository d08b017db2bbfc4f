// The writer's side of migration 015: the last stored request of every open chain (episode,
// agent, purpose) of this connection, so the next request of the chain is stored as a delta
// against it. An episode's chains are dropped when it finishes; the map is also bounded, and a
// chain that is not remembered simply stores its next request whole.
import type { Store } from './connection.js';
import { requestChainKey, toRequestDelta } from './request-delta.js';

const maxChains = 1024;
const chains = new WeakMap<Store, Map<string, unknown>>();

function chainsOf(store: Store): Map<string, unknown> {
  let map = chains.get(store);
  if (!map) {
    map = new Map();
    chains.set(store, map);
  }
  return map;
}

export interface StoredRequest {
  /** The `request` column: the whole request, or its delta. */
  column: string | null;
  delta: 0 | 1;
  /** The request as the column's reader rebuilds it (kept as the chain's next base). */
  full: unknown;
}

/** The column for a request (already in its stored JSON form) of the chain `key`. */
export function toStoredRequest(store: Store, key: string, column: string | null): StoredRequest {
  if (column === null) return { column, delta: 0, full: null };
  const full: unknown = JSON.parse(column);
  const previous = chainsOf(store).get(key);
  const delta = previous === undefined ? undefined : toRequestDelta(previous, full);
  return delta ? { column: JSON.stringify(delta), delta: 1, full } : { column, delta: 0, full };
}

/** Called after the row is written: `stored` is the chain's base from now on. */
export function rememberRequest(store: Store, key: string, stored: StoredRequest): void {
  if (stored.column === null) return;
  const map = chainsOf(store);
  map.delete(key);
  map.set(key, stored.full);
  if (map.size > maxChains) map.delete(map.keys().next().value as string);
}

/** Drops the chains of a finished episode. */
export function forgetEpisodeRequests(store: Store, episodeId: number): void {
  const map = chains.get(store);
  if (!map) return;
  const prefix = requestChainKey(episodeId, '', '').split('\u0000')[0] ?? '';
  for (const key of [...map.keys()]) if (key.startsWith(`${prefix}\u0000`)) map.delete(key);
}
