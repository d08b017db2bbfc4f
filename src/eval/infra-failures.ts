// Which tasks of a run ended as infrastructure failures (a provider outage, a crashed or missing
// server, a timeout, an unreadable task image): they are not the model's fault, so every default
// denominator of the evaluators leaves them out and reports them beside the scores (count and
// ids). A GT task with neither a prediction nor such a record still counts as an empty
// trajectory: missing work is penalised.
// Source: the run manifest the runner writes next to the predictions
// (`<predictions minus .json>.manifest.json`). Fields relied on, read defensively so the
// manifest can grow: `failures[].taskId` and `failures[].status` ("infra_failure" or "timeout";
// "model_failure" is the model's and stays scored), or `failures[].kind === "infra"` if present.
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';

interface InfraFailureRecord {
  id: string;
  status: string;
  code: string;
  message: string;
}

export interface InfraFailures {
  /** The manifest read, or undefined when there was none. */
  source: string | undefined;
  records: InfraFailureRecord[];
  ids: ReadonlySet<string>;
  /** Set when a manifest exists but could not be read (the evaluation then excludes nothing). */
  warning?: string;
}

const failureSchema = z
  .object({
    taskId: z.union([z.string(), z.number()]).transform(String),
    status: z.string().optional(),
    kind: z.string().optional(),
    code: z.string().optional(),
    message: z.string().optional(),
  })
  .loose();
const manifestSchema = z.object({ failures: z.array(z.unknown()).optional() }).loose();

const infraStatuses = new Set(['infra_failure', 'timeout']);

export const noInfraFailures: InfraFailures = { source: undefined, records: [], ids: new Set() };

/** `results/<model>_test_mcp_fuzzy.json` → `results/<model>_test_mcp_fuzzy.manifest.json`. */
export function manifestFileFor(predictionsFile: string): string {
  return /\.json$/i.test(predictionsFile) ? predictionsFile.replace(/\.json$/i, '.manifest.json') : `${predictionsFile}.manifest.json`;
}

/** Reads the infrastructure failures of a run; a missing manifest means none are known. */
export function loadInfraFailures(manifestFile: string): InfraFailures {
  if (!existsSync(manifestFile)) return noInfraFailures;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(manifestFile, 'utf8'));
  } catch (error) {
    return {
      ...noInfraFailures,
      warning: `${manifestFile}: cannot read the run manifest (${(error as Error).message}); no infrastructure failures are excluded`,
    };
  }
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success)
    return { ...noInfraFailures, warning: `${manifestFile}: not a run manifest (no failures list); no infrastructure failures are excluded` };
  const records: InfraFailureRecord[] = [];
  for (const entry of parsed.data.failures ?? []) {
    const failure = failureSchema.safeParse(entry);
    if (!failure.success) continue;
    const { taskId, status = '', kind, code = '', message = '' } = failure.data;
    if (kind === 'infra' || infraStatuses.has(status)) records.push({ id: taskId.trim(), status, code, message });
  }
  return { source: manifestFile, records, ids: new Set(records.map((record) => record.id)) };
}

/** The summary written beside the scores. */
export function describeInfraFailures(failures: InfraFailures, excluded: readonly string[]) {
  return {
    count: excluded.length,
    ids: [...excluded],
    source: failures.source ?? null,
    codes: Object.fromEntries(
      [...new Set(failures.records.filter((record) => excluded.includes(record.id)).map((record) => record.code))].map((code) => [
        code,
        failures.records.filter((record) => record.code === code && excluded.includes(record.id)).length,
      ]),
    ),
  };
}
