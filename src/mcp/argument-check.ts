// Arguments are checked against the tool's JSON Schema before the call leaves the harness,
// so a schema violation becomes a recorded, model-visible error instead of a server crash.
import { Ajv, type ValidateFunction } from 'ajv';
import type { CatalogTool } from './types.js';

export class ArgumentChecker {
  private readonly ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
  private readonly cache = new Map<string, ValidateFunction | null>();

  /** Returns an error message, or undefined when the arguments fit the schema. */
  check(tool: CatalogTool, args: Record<string, unknown>): string | undefined {
    let validate = this.cache.get(tool.canonicalName);
    if (validate === undefined) {
      try {
        validate = this.ajv.compile(tool.inputSchema);
      } catch {
        validate = null; // A schema ajv cannot compile is the server's problem; let the server judge.
      }
      this.cache.set(tool.canonicalName, validate);
    }
    if (!validate || validate(args)) return undefined;
    return this.ajv.errorsText(validate.errors, { dataVar: 'arguments', separator: '; ' });
  }
}

const checkers = new WeakMap<object, ArgumentChecker>();

/**
 * One checker per tool host, shared by every episode: building an Ajv instance and compiling
 * a schema costs tens of milliseconds, far more than a tool round-trip.
 */
export function checkerFor(host: object): ArgumentChecker {
  let checker = checkers.get(host);
  if (!checker) {
    checker = new ArgumentChecker();
    checkers.set(host, checker);
  }
  return checker;
}

/** Normalises what the model sent into an argument object, or explains why it cannot be one. */
export function toArgumentObject(value: unknown): { args: Record<string, unknown> } | { error: string } {
  if (value === undefined || value === null || value === '') return { args: {} };
  let candidate = value;
  if (typeof candidate === 'string') {
    try {
      candidate = JSON.parse(candidate);
    } catch {
      return { error: 'arguments must be a JSON object, got a string that is not JSON' };
    }
  }
  if (typeof candidate !== 'object' || candidate === null || Array.isArray(candidate)) {
    return { error: `arguments must be a JSON object, got ${Array.isArray(candidate) ? 'an array' : typeof candidate}` };
  }
  return { args: candidate as Record<string, unknown> };
}
