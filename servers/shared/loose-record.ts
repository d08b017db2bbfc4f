// Reading upstream JSON the way the reference servers (plain JS / Python dicts) did: optional
// nested objects read as `{}` and JavaScript's `value || fallback`, without `any`. Used after a
// zod check of the outer shape, for the deep optional fields each record may or may not carry.

export type LooseRecord = Record<string, unknown>;

/** The value as an object to read fields from; `{}` for anything that is not a plain object. */
export function asRecord(value: unknown): LooseRecord {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as LooseRecord) : {};
}

/** The value as a list; `[]` for anything that is not an array. */
export function asList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** JavaScript's `value || fallback`: falsy values (undefined, null, '', 0, false, NaN) give the fallback. */
export function orElse(value: unknown, fallback: unknown = ''): unknown {
  return value || fallback;
}
