// Secrets never reach logs, result files, traces or the store. Two layers: known secret values
// (every configured key is registered at start-up) and patterns that look like credentials.

const knownSecrets = new Set<string>();

/** Registers a secret value (an API key read from config) so it is masked wherever it appears. */
export function registerSecret(value: string | undefined): void {
  if (value && value.length >= 8) knownSecrets.add(value);
}

/** Registers every value of the environment whose name looks like it holds a credential. */
export function registerSecretsFromEnv(env: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(env)) {
    if (/(KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL)/i.test(name)) registerSecret(value);
  }
}

const patterns: RegExp[] = [
  /\bsk-[A-Za-z0-9_-]{16,}/g, // OpenAI-style keys
  /\bsk-ant-[A-Za-z0-9_-]{16,}/g, // Anthropic keys
  /\bAIza[0-9A-Za-z_-]{30,}/g, // Google API keys
  /\bxai-[A-Za-z0-9]{20,}/g,
  /([?&](?:key|api_key|apikey|access_token|token)=)[^&\s"']+/gi, // key= query values (the GT heatmap URLs)
  /(\b(?:authorization|x-api-key|x-goog-api-key|api-key)\b["']?\s*[:=]\s*["']?)(?:Bearer\s+)?[^\s"',}]+/gi,
];

export function redactText(text: string): string {
  let out = text;
  for (const secret of knownSecrets) out = out.split(secret).join('[REDACTED]');
  for (const pattern of patterns) {
    out = out.replace(pattern, (match, prefix?: string) => (typeof prefix === 'string' && match.startsWith(prefix) ? `${prefix}[REDACTED]` : '[REDACTED]'));
  }
  return out;
}

/** Deep-redacts a JSON-like value: secret-named fields are masked, strings are scrubbed. */
export function redactValue(value: unknown): unknown {
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value)) return value.map(redactValue);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        /^(api[-_]?key|authorization|x-api-key|x-goog-api-key|password|secret|token|access_token)$/i.test(key) ? '[REDACTED]' : redactValue(inner),
      ]),
    );
  }
  return value;
}
