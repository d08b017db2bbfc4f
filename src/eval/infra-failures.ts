// Which tasks of a run ended as infrastructure failures (a provider outage, a crashed or missing
// server, a timeout, an unreadable task image): they are not the model's fault, so every default
// denominator of the evaluators leaves them out and reports them beside the scores (count and
// ids). A GT task with neither a prediction nor such a record still counts as an empty
// trajectory: missing work is penalised.
// Source: the run manifest the runner writes next to the predictions
// (`<predictions minus .json>.manifest.json`). Fields relied on, read defensively so the
// manifest can grow: `failures[].taskId` and `failures[].status` ("infra_failure" or "timeout";
// "model_failure" is the model's and stays scored), or `failures[].kind === "infra"` if present.
import { manifestFileFor } from '../results/layout.js';
import { isInfraFailure, readManifestForEvaluation } from '../results/run-manifest-read.js';

export { manifestFileFor };

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

export const noInfraFailures: InfraFailures = { source: undefined, records: [], ids: new Set() };

/** Reads the infrastructure failures of a run; a missing manifest means none are known. */
export function loadInfraFailures(manifestFile: string): InfraFailures {
  const read = readManifestForEvaluation(manifestFile);
  if (read.state === 'absent') return noInfraFailures;
  if (read.state === 'unreadable') return { ...noInfraFailures, warning: `${manifestFile}: ${read.reason}; no infrastructure failures are excluded` };
  const records: InfraFailureRecord[] = read.failures
    .filter((failure) => isInfraFailure(failure))
    .map((failure) => ({ id: failure.taskId.trim(), status: failure.status ?? '', code: failure.code ?? '', message: failure.message ?? '' }));
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
