// The upstream's own words from an error answer (401, 403, 404, 429, ...), so a tool error says
// what the vendor said ("Invalid API key", "Rate limit exceeded for this key") instead of only a
// status code, with every secret the request carried removed first (a vendor may echo the key).
import { clip } from '../../src/core/number-format.js';

const messageFields = ['message', 'status_message', 'error_description', 'error_message', 'msg', 'detail', 'title', 'error', 'errors', 'fault', 'faultstring'];
const maxLength = 300;
const secretName = /key|token|secret|sig|auth|password|passwd|cookie|session|crumb|client[-_]?id/i;

function textOf(value: unknown, depth = 0): string | undefined {
  if (depth > 3 || value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value.trim() || undefined;
  if (Array.isArray(value)) {
    const parts = value.map((item) => textOf(item, depth + 1)).filter((part): part is string => part !== undefined);
    return parts.length > 0 ? parts.join('; ') : undefined;
  }
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const field of messageFields) {
      const found = textOf(record[field], depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}

/** The message of a JSON error body (the usual fields, nested), else the text without markup. */
export function vendorMessage(body: string): string {
  let text: string | undefined;
  try {
    text = textOf(JSON.parse(body));
  } catch {
    text = undefined;
  }
  const plain = (text ?? body)
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return clip(plain, maxLength, { marker: '…' });
}

/** The values of a request that are secrets: every header but the plain ones, and key-like query values. */
export function requestSecrets(headers: Record<string, string> | undefined, query: Record<string, unknown> | undefined): string[] {
  const plainHeaders = new Set(['accept', 'accept-version', 'accept-language', 'content-type', 'user-agent', 'api-user-agent', 'range']);
  const secrets: string[] = [];
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (plainHeaders.has(name.toLowerCase())) continue;
    secrets.push(value, ...value.split(/[\s;=]+/));
  }
  for (const [name, value] of Object.entries(query ?? {})) if (secretName.test(name) && typeof value === 'string') secrets.push(value);
  return secrets.filter((secret) => secret.length >= 6 && !/^(bearer|client-id|basic)$/i.test(secret));
}

/** `text` with each secret replaced by "[redacted]" (longest first, so a part never leaves the rest). */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) out = out.split(secret).join('[redacted]');
  return out;
}
