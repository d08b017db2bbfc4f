// A model request stored as what changed against the previous request of the same chain (one
// episode, agent and purpose, in id order; migration 015). Requests are JSON objects whose
// history arrays (`messages`, `contents`, `input`) keep their leading items (the round's own
// prompt at the end is replaced, the new turns appended), and whose other keys (the tool list,
// the model, the settings) rarely change; so a request is stored as the keys that are the same,
// the arrays it extends (how many leading items it shares, the items after them) and the keys it
// sets.
// One schema writes and reads the stored form; `fromRequestDelta` rebuilds the request exactly.
import { z } from 'zod';

const marker = 'm3bench/request-delta';

export const requestDeltaSchema = z.strictObject({
  [marker]: z.literal(1),
  /** The request's keys in their order, so the rebuilt object serialises as the original did. */
  order: z.array(z.string()),
  same: z.array(z.string()),
  extend: z.record(z.string(), z.strictObject({ keep: z.number().int().nonnegative(), add: z.array(z.unknown()) })),
  set: z.record(z.string(), z.unknown()),
});

export type RequestDelta = z.output<typeof requestDeltaSchema>;

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** How many leading items `previous` and `current` share (the history up to the round's new turns). */
function commonPrefix(previous: unknown[], current: unknown[]): number {
  const limit = Math.min(previous.length, current.length);
  let index = 0;
  while (index < limit && JSON.stringify(previous[index]) === JSON.stringify(current[index])) index += 1;
  return index;
}

/**
 * The delta of `current` against `previous` (both as stored: parsed from their JSON column), or
 * undefined when either is not an object or the delta would not be smaller than the request.
 */
export function toRequestDelta(previous: unknown, current: unknown): RequestDelta | undefined {
  if (!isObject(previous) || !isObject(current)) return undefined;
  const delta: RequestDelta = { [marker]: 1, order: Object.keys(current), same: [], extend: {}, set: {} };
  for (const [key, value] of Object.entries(current)) {
    const before = Object.hasOwn(previous, key) ? previous[key] : undefined;
    if (before !== undefined && JSON.stringify(before) === JSON.stringify(value)) delta.same.push(key);
    else if (Array.isArray(before) && Array.isArray(value) && commonPrefix(before, value) > 0) {
      const keep = commonPrefix(before, value);
      delta.extend[key] = { keep, add: value.slice(keep) };
    } else delta.set[key] = value;
  }
  return JSON.stringify(delta).length < JSON.stringify(current).length ? delta : undefined;
}

/** The request `delta` was made from, given the rebuilt previous request; undefined when they do not fit. */
export function fromRequestDelta(previous: unknown, delta: RequestDelta): JsonObject | undefined {
  if (!isObject(previous)) return undefined;
  const rebuilt: JsonObject = {};
  for (const key of delta.order) {
    const extended = delta.extend[key];
    const before = previous[key];
    if (delta.same.includes(key)) {
      if (!Object.hasOwn(previous, key)) return undefined;
      rebuilt[key] = before;
    } else if (extended) {
      if (!Array.isArray(before) || before.length < extended.keep) return undefined;
      rebuilt[key] = [...before.slice(0, extended.keep), ...extended.add];
    } else if (Object.hasOwn(delta.set, key)) rebuilt[key] = delta.set[key];
    else return undefined;
  }
  return rebuilt;
}

/** The chain a request belongs to: the previous request of the same chain is its base. */
export function requestChainKey(episodeId: number, agent: string | null | undefined, purpose: string): string {
  return `${episodeId}\u0000${agent ?? ''}\u0000${purpose}`;
}
