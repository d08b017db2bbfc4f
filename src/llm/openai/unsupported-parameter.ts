// A 400 in which OpenAI (or a compatible server speaking its error format) names a parameter the
// model does not take: `{"code": "unsupported_parameter" | "unsupported_value", "param": "..."}`.
// Drivers leave such a parameter out and retry once, for models model-families.ts does not know.
import OpenAI from 'openai';
import type { OmittableParameter } from './request.js';

const omittable: ReadonlySet<string> = new Set<OmittableParameter>(['parallel_tool_calls', 'temperature', 'seed']);

function unsupportedParameterOf(error: unknown): OmittableParameter | undefined {
  if (!(error instanceof OpenAI.APIError) || error.status !== 400) return undefined;
  const param = typeof error.param === 'string' ? error.param : undefined;
  const unsupported = error.code === 'unsupported_parameter' || error.code === 'unsupported_value' || /unsupported (parameter|value)/i.test(error.message);
  return unsupported && param && omittable.has(param) ? (param as OmittableParameter) : undefined;
}

/**
 * Runs `send` with the parameters in `omit` left out; when the API refuses one more, adds it to
 * `omit` (for the rest of the run), reports it, and tries again.
 */
export async function withoutRefusedParameters<T>(
  omit: Set<OmittableParameter>,
  send: () => Promise<T>,
  report: (parameter: OmittableParameter, message: string) => void,
): Promise<T> {
  for (;;) {
    try {
      return await send();
    } catch (error) {
      const parameter = unsupportedParameterOf(error);
      if (!parameter || omit.has(parameter)) throw error;
      omit.add(parameter);
      report(parameter, (error as Error).message);
    }
  }
}
