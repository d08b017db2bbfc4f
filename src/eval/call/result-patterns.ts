// Reading a recorded tool result as text: is it an error, and which kind. Patterns are matched
// only on text that looks like an error (a `[Tool error]` prefix, an error-shaped JSON object,
// "Error executing tool", or a short message), because long successful results often contain
// phrases such as "not found" in their content. When the record says whether the call failed
// (our prediction files, src/core/tool-result-contract.ts), that is taken instead of the shape.
import { isToolErrorText, NO_TEXTUAL_CONTENT, TOOL_ERROR_PREFIX } from '../../core/tool-result-contract.js';

export type ResultFinding =
  | { kind: 'empty' }
  | { kind: 'invalid_arguments'; rule: string; detail: string }
  | { kind: 'resource_not_found'; rule: string; detail: string }
  | { kind: 'infrastructure'; rule: string; detail: string }
  | { kind: 'unexplained_error'; detail: string }
  | { kind: 'ok' };

/** A message this short is most likely a status line, not content, so patterns apply to it. */
const shortResultChars = 300;

const emptyTexts = new Set(['', NO_TEXTUAL_CONTENT, '[]', '{}', 'null', '""']);

export function resultText(result: unknown): string {
  if (typeof result === 'string') return result;
  if (result === undefined || result === null) return '';
  return JSON.stringify(result);
}

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function isEmptyValue(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

/**
 * `[]`, `{}`, `{"results": []}`, NO_TEXTUAL_CONTENT: the tool answered with nothing.
 * @internal Exported for its tests.
 */
export function isEmptyResult(text: string): boolean {
  const trimmed = text.trim();
  if (emptyTexts.has(trimmed)) return true;
  const object = parseJsonObject(trimmed);
  return object !== undefined && Object.values(object).every(isEmptyValue);
}

function jsonStatus(object: Record<string, unknown> | undefined): number | undefined {
  if (!object) return undefined;
  for (const key of ['status', 'status_code', 'statusCode', 'code']) {
    const value = object[key];
    const status = typeof value === 'number' ? value : typeof value === 'string' && /^\d{3}$/.test(value) ? Number(value) : undefined;
    if (status !== undefined && status >= 400 && status <= 599) return status;
  }
  return undefined;
}

function isErrorShaped(text: string, object: Record<string, unknown> | undefined): boolean {
  if (isToolErrorText(text.trimStart())) return true;
  if (/^\s*(error|exception|traceback)\b/i.test(text) || /Error executing tool/i.test(text)) return true;
  if (!object) return false;
  if (object.error || (Array.isArray(object.errors) && object.errors.length > 0) || object.success === false || object.isError === true) return true;
  return jsonStatus(object) !== undefined;
}

const statusPatterns: RegExp[] = [
  /\b(?:HTTP(?:\/\d(?:\.\d)?)?|status(?:[ _]?code)?|error code|response code)\s*[:=]?\s*(\d{3})\b/i,
  /\b(\d{3})\s+(?:Client Error|Server Error|Bad Request|Not Found|Unprocessable|Unauthorized|Forbidden|Too Many Requests|Internal Server Error|Bad Gateway|Service Unavailable|Gateway Time-?out|Gone)\b/i,
];

function httpStatus(text: string, object: Record<string, unknown> | undefined): number | undefined {
  const fromJson = jsonStatus(object);
  if (fromJson !== undefined) return fromJson;
  for (const pattern of statusPatterns) {
    const match = pattern.exec(text);
    const status = match?.[1] ? Number(match[1]) : undefined;
    if (status !== undefined && status >= 400 && status <= 599) return status;
  }
  return undefined;
}

function findingForStatus(status: number): ResultFinding {
  const detail = `HTTP ${status}`;
  if (status === 400 || status === 422) return { kind: 'invalid_arguments', rule: 'http_status', detail };
  if (status === 404 || status === 410) return { kind: 'resource_not_found', rule: 'http_status', detail };
  // Credentials (401/403), rate limits (429) and server failures (5xx) are not the model's doing.
  if (status === 401 || status === 403 || status === 407 || status === 429 || status >= 500) {
    return { kind: 'infrastructure', rule: 'http_status', detail };
  }
  return { kind: 'invalid_arguments', rule: 'http_status', detail };
}

const invalidPatterns: RegExp[] = [
  /invalid (?:tool )?(?:arguments?|params?|parameters?|input|value|request|format|type)/i,
  /validation (?:error|failed)/i,
  /missing (?:required )?(?:argument|parameter|field|property)/i,
  /(?:field|argument|parameter|property) (?:is )?required/i,
  /is a required property/i,
  /\bInput should be\b/,
  /unexpected keyword argument/i,
  /required positional argument/i,
  /must be (?:a|an|one of|of type)\b/i,
  /\bTypeError\b|\bValueError\b/,
  /\binvalid\b/i,
];

const notFoundPatterns: RegExp[] = [
  /not found/i,
  /no (?:results?|matches|matching|records?|data|items?|entries|documents?)\b/i,
  /does not exist|doesn'?t exist/i,
  /could not (?:find|locate|resolve)|couldn'?t find|unable to (?:find|locate)/i,
  /no such\b/i,
  // A file the model named is not there (`cannot read image "x.png": ENOENT`).
  /\bENOENT\b/,
  /unknown (?:route|endpoint|resource|id|identifier|symbol|ticker|location|city)\b/i,
  /zero results|ZERO_RESULTS/,
];

const infrastructurePatterns: RegExp[] = [
  /timed? ?out|timeout/i,
  // `server "ocr" exited`, `server unreachable`, `the server was closed`: a quoted name may sit between.
  /\bserver (?:"[^"]*" )?(?:is |was )?(?:crashed|unavailable|exited|stopped|restarting|unreachable|closed|gave up|not (?:running|ready))/i,
  /ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|connection (?:refused|reset|closed|error|to the server was lost)/i,
  /rate limit|too many requests|quota/i,
  /api[ _-]?key|unauthori[sz]ed|forbidden|credentials?/i,
  /\baborted\b/i,
];

/**
 * The host's own failure messages (src/mcp/server-connection.ts), at the start of an error
 * result: infrastructure whatever else the text holds (a crashed server's stderr tail may say
 * "not found" or "invalid").
 */
const hostFailurePattern = new RegExp(
  `^\\s*${escapeRegExp(TOOL_ERROR_PREFIX.trim())}\\s*(?:server "[^"]*" (?:exited unexpectedly|is restarting|is unavailable|is stopped|gave up)|\\S+ did not answer within \\d+ ms|\\S+: (?:the server was closed|the server stopped answering|server unreachable|the connection to the server was lost)|call to \\S+ was aborted)`,
);

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function firstMatch(patterns: readonly RegExp[], text: string): string | undefined {
  for (const pattern of patterns) {
    const match = pattern.exec(text);
    if (match) return match[0];
  }
  return undefined;
}

/**
 * Classifies a recorded result text; unknown-tool refusals are handled by the caller.
 * `recordedError`: whether the record says the call failed; undefined (older files, the
 * reference's) means the text's shape decides.
 */
export function analyseResult(text: string, recordedError?: boolean): ResultFinding {
  if (isEmptyResult(text)) return { kind: 'empty' };
  const object = parseJsonObject(text);
  const errorShaped = recordedError ?? isErrorShaped(text, object);
  if (!errorShaped && text.trim().length > shortResultChars) return { kind: 'ok' };
  const hostFailure = errorShaped ? hostFailurePattern.exec(text) : null;
  if (hostFailure) return { kind: 'infrastructure', rule: 'host_message', detail: hostFailure[0].trim() };
  const status = httpStatus(text, object);
  if (status !== undefined) return findingForStatus(status);
  const invalid = firstMatch(invalidPatterns, text);
  if (invalid) return { kind: 'invalid_arguments', rule: 'message', detail: invalid };
  const notFound = firstMatch(notFoundPatterns, text);
  if (notFound) return { kind: 'resource_not_found', rule: 'message', detail: notFound };
  const infrastructure = firstMatch(infrastructurePatterns, text);
  if (infrastructure && errorShaped) return { kind: 'infrastructure', rule: 'message', detail: infrastructure };
  if (errorShaped) return { kind: 'unexplained_error', detail: text.trim().slice(0, 200) };
  return { kind: 'ok' };
}
