// The check `m3 run` makes before any server starts: ask the provider for the model (a free
// look-up, no tokens). A rejected key or a model the endpoint does not have stops the run there,
// with the variable or name to fix; anything else (an endpoint without the look-up route, a
// network hiccup) only warns, since the batch's own retries and requeues handle outages.
import type { ClassifiedError } from './provider-errors.js';

export type PreflightResult = { ok: true } | { ok: false; fatal: boolean; message: string };

/** How long the look-up may take before the run starts anyway (with a warning). */
const preflightTimeoutMs = 20_000;

export async function runPreflight(probe: (signal: AbortSignal) => Promise<unknown>, classify: (error: unknown) => ClassifiedError): Promise<PreflightResult> {
  try {
    await probe(AbortSignal.timeout(preflightTimeoutMs));
    return { ok: true };
  } catch (error) {
    const classified = classify(error);
    // Only a 404 that names the model is a missing model; a server without the route says nothing about it.
    const missingModel = classified.configFault === true && /\bmodels?\b/i.test(classified.detail ?? '');
    const fatal = classified.errorClass === 'auth' || missingModel;
    return { ok: false, fatal, message: classified.message };
  }
}
