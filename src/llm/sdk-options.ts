// Client options every vendor SDK gets the same way (the Anthropic and Gemini drivers reuse
// these): a finite timeout and a logger that writes to our stderr logger, never to stdout.
import { log } from '../log/logger.js';

/** With M3_LLM_TIMEOUT=0 the harness sets no limit; SDKs still need a number. */
export function sdkTimeout(timeoutMs: number): number {
  return timeoutMs > 0 ? timeoutMs : 24 * 60 * 60 * 1000;
}

/** SDK diagnostics go to our stderr logger; the SDK defaults would print to stdout. */
export function sdkLogger(prefix: string) {
  const line = (message: string, rest: unknown[]) =>
    `${prefix}: ${[message, ...rest.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)))].join(' ')}`;
  return {
    error: (message: string, ...rest: unknown[]) => log.error(line(message, rest)),
    warn: (message: string, ...rest: unknown[]) => log.warn(line(message, rest)),
    info: (message: string, ...rest: unknown[]) => log.debug(line(message, rest)),
    debug: (message: string, ...rest: unknown[]) => log.debug(line(message, rest)),
  };
}
