// Secrets never reach logs, result files, traces or the store. Two layers: known secret values
// (registered when the configuration is loaded: every provider key, every value the server
// configuration passes to a server, every variable named like a credential) and patterns that
// look like credentials. Structured data is redacted value by value before it is serialised
// (`redactValue`, `toRedactedJson`); text is redacted as text (`redactText`). Never run
// `redactText` over serialised JSON: a pattern can eat the backslash of an escaped quote.

const knownSecrets = new Set<string>();

/** Registers a secret value (an API key read from config) so it is masked wherever it appears. */
export function registerSecret(value: string | undefined, minLength = 8): void {
  if (value && value.length >= minLength) knownSecrets.add(value);
}

const secretName = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|CREDENTIAL|AUTH)/i;

/** Registers every value of the environment whose name looks like it holds a credential. */
export function registerSecretsFromEnv(env: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(env)) {
    if (secretName.test(name)) registerSecret(value);
  }
}

/** Values that cannot be a secret, whatever their name: masking them everywhere would corrupt outputs. */
function plainlyNotSecret(name: string, value: string): boolean {
  const trimmed = value.trim();
  if (trimmed.length < 6) return true;
  if (/^(true|false|yes|no|on|off|null|none|debug|info|warn|warning|error)$/i.test(trimmed)) return true;
  if (/^-?\d+(\.\d+)?$/.test(trimmed)) return true;
  if (/^(\/|\.\.?\/|~\/|[A-Za-z]:\\)/.test(trimmed)) return true;
  if (/^https?:\/\/[^@\s]+$/i.test(trimmed)) return true;
  return /_(DIR|DIRS|PATH|ROOT|ROOTS|HOST|PORT|LEVEL|MODE|URL)$/i.test(name) && !secretName.test(name);
}

/**
 * Registers the values configuration hands to a server (`env`, `headers` in mcp_servers.json):
 * a `DB_PASS` is a secret whatever its name says. Numbers, flags, paths and credential-free URLs
 * are left alone; a URL's `user:password@` part is registered by itself.
 */
export function registerPassedValues(values: Record<string, string>): void {
  for (const [name, value] of Object.entries(values)) {
    const password = /^[a-z][a-z0-9+.-]*:\/\/[^:/@\s]*:([^@\s]+)@/i.exec(value)?.[1];
    if (password) registerSecret(decodeURIComponent(password), 4);
    if (!plainlyNotSecret(name, value)) registerSecret(value, 6);
  }
}

const patterns: RegExp[] = [
  /\bsk-[A-Za-z0-9_-]{16,}/g, // OpenAI-style keys
  /\bsk-ant-[A-Za-z0-9_-]{16,}/g, // Anthropic keys
  /\bAIza[0-9A-Za-z_-]{30,}/g, // Google API keys
  /\bxai-[A-Za-z0-9]{20,}/g,
  /([?&](?:key|api_key|apikey|access_token|token)=)[^&\s"'\\]+/gi, // key= query values (the GT heatmap URLs)
  /(\b(?:authorization|x-api-key|x-goog-api-key|api-key)\b["']?\s*[:=]\s*["']?)(?:Bearer\s+)?[^\s"',}\\]+/gi,
];

/**
 * Text every pattern above needs somewhere in a match (case-insensitively): most strings (tool
 * results, prompts, names) contain none of these, and one scan is cheaper than six replaces.
 */
const patternHint = /sk-|aiza|xai-|key=|token=|authorization|api-key/i;

export function redactText(text: string): string {
  let out = text;
  for (const secret of knownSecrets) if (out.includes(secret)) out = out.split(secret).join('[REDACTED]');
  if (!patternHint.test(out)) return out;
  for (const pattern of patterns) {
    out = out.replace(pattern, (match, prefix?: string) => (typeof prefix === 'string' && match.startsWith(prefix) ? `${prefix}[REDACTED]` : '[REDACTED]'));
  }
  return out;
}

export interface RedactOptions {
  /** Extra text rewriting applied to every string after secret redaction (e.g. masking machine paths). */
  rewrite?: (text: string) => string;
  /** Applied to every string before redaction (e.g. replacing a long base64 payload by a note, so the patterns never scan it). */
  before?: (text: string) => string;
}

export interface RedactJsonOptions extends RedactOptions {
  space?: number;
}

const secretKey = /^(api[-_]?key|authorization|x-api-key|x-goog-api-key|password|secret|token|access_token)$/i;

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/**
 * Deep-redacts a JSON-like value: secret-named fields are masked, strings are scrubbed. Only
 * arrays and plain objects are walked; other objects (a number wrapper with its own toJSON,
 * a Date) pass through unchanged.
 */
export function redactValue(value: unknown, options: RedactOptions = {}): unknown {
  if (typeof value === 'string') {
    const clean = redactText(options.before ? options.before(value) : value);
    return options.rewrite ? options.rewrite(clean) : clean;
  }
  if (Array.isArray(value)) return value.map((item) => redactValue(item, options));
  if (value && typeof value === 'object' && isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, secretKey.test(key) ? '[REDACTED]' : redactValue(inner, options)]));
  }
  return value;
}

/**
 * Replaces every registered secret value (and nothing else: no pattern, no field name) inside a
 * JSON-like value, walking arrays and plain objects; other objects (a float wrapper) pass through.
 * For the prediction file: what the model and the tools said stays verbatim for scoring, except a
 * configured secret echoed back, which must not reach a file that is shared.
 */
export function redactKnownSecrets<T>(value: T): T {
  if (knownSecrets.size === 0) return value;
  return replaceKnown(value) as T;
}

function replaceKnown(value: unknown): unknown {
  if (typeof value === 'string') {
    let out = value;
    for (const secret of knownSecrets) if (out.includes(secret)) out = out.split(secret).join('[REDACTED]');
    return out;
  }
  if (Array.isArray(value)) return value.map(replaceKnown);
  if (value && typeof value === 'object' && isPlainObject(value))
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, replaceKnown(inner)]));
  return value;
}

/**
 * The one way writers that redact serialise: every string is redacted and every secret-named
 * field masked as JSON.stringify reaches it (one walk, no redacted copy of the value first). This
 * masks at least what redactValue does: objects that are not plain are redacted inside too.
 */
export function toRedactedJson(value: unknown, options: RedactJsonOptions = {}): string {
  const { before, rewrite } = options;
  return JSON.stringify(
    value,
    function redacting(this: unknown, key: string, inner: unknown): unknown {
      if (key !== '' && !Array.isArray(this) && secretKey.test(key)) return '[REDACTED]';
      if (typeof inner !== 'string') return inner;
      const clean = redactText(before ? before(inner) : inner);
      return rewrite ? rewrite(clean) : clean;
    },
    options.space,
  );
}
