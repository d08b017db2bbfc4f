// The one `retry-after` parser, for the model drivers and the web servers' HTTP client alike:
// `retry-after-ms` (milliseconds) wins over `retry-after` (delta seconds or an HTTP date).

export interface HeaderReader {
  get(name: string): string | null;
}

/** Milliseconds to wait, or undefined when the headers name no usable delay. */
export function retryAfterFromHeaders(headers: HeaderReader | undefined, now = Date.now()): number | undefined {
  if (!headers || typeof headers.get !== 'function') return undefined;
  const milliseconds = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return Math.round(milliseconds);
  const raw = headers.get('retry-after')?.trim();
  if (!raw) return undefined;
  if (/^\d+(\.\d+)?$/.test(raw)) return Math.round(Number.parseFloat(raw) * 1000);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
