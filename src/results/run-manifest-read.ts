// Reading a run manifest back for the evaluators (step, CV, final, task): the fields they need,
// taken from the one manifest schema (src/results/run-manifest.ts), read tolerantly: manifests
// of older versions and hand-written ones (a failures list and little else) still give their
// infrastructure failures, and a field of the wrong type reads as absent rather than stopping
// an evaluation.
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { runManifestSchema } from './run-manifest.js';

const shape = runManifestSchema.shape;

const evaluationPart = z
  .object({
    runId: shape.runId.optional().catch(undefined),
    model: shape.model.optional().catch(undefined),
    options: shape.options.optional().catch(undefined),
    /** This version writes `{name, parts}`; older files a name or a list of names. */
    condition: z.unknown().optional(),
    conditions: z.unknown().optional(),
    failures: z.array(z.unknown()).optional(),
  })
  .loose();

/** A failures entry as written by this version (`{taskId, status, code, message, attempts}`) or an older one (`kind`, numeric ids). */
const failureEntry = z
  .object({
    taskId: z.union([z.string(), z.number()]).transform(String),
    status: z.string().optional(),
    kind: z.string().optional(),
    code: z.string().optional(),
    message: z.string().optional(),
  })
  .loose();

export type ManifestFailure = z.output<typeof failureEntry>;

export type ManifestForEvaluation =
  | { state: 'absent' }
  | { state: 'unreadable'; reason: string }
  | { state: 'read'; manifest: z.output<typeof evaluationPart>; failures: ManifestFailure[] };

export function readManifestForEvaluation(file: string | undefined): ManifestForEvaluation {
  if (!file || !existsSync(file)) return { state: 'absent' };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return { state: 'unreadable', reason: `cannot read the run manifest (${(error as Error).message})` };
  }
  const parsed = evaluationPart.safeParse(raw);
  if (!parsed.success) return { state: 'unreadable', reason: 'not a run manifest (no failures list)' };
  const failures = (parsed.data.failures ?? []).flatMap((entry) => {
    const failure = failureEntry.safeParse(entry);
    return failure.success ? [failure.data] : [];
  });
  return { state: 'read', manifest: parsed.data, failures };
}

/** Statuses the runner records for failures that are not the model's doing. */
const infraStatuses = new Set(['infra_failure', 'timeout']);

export function isInfraFailure(failure: ManifestFailure): boolean {
  return failure.kind === 'infra' || infraStatuses.has(failure.status ?? '');
}
