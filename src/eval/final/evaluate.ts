// Final-answer evaluation with a judge ensemble: per GT id, every judge scores Task
// Completion, then Information Grounding; per task the trimmed mean of the judges is kept.
// Missing predictions and judge failures are listed and count as 0 in the `_all` rates (bug 40).
// Tasks the run recorded as infrastructure failures (src/eval/infra-failures.ts) are not the
// model's: they are listed apart and left out of every denominator.
import type { ModelDriver } from '../../llm/types.js';
import { noInfraFailures, type InfraFailures } from '../infra-failures.js';
import { indexById } from '../../tasks/load.js';
import type { GtTask, Prediction } from '../../tasks/schemas.js';
import { mapWithConcurrency } from './judge-kit.js';
import {
  askJudge,
  informationGroundingMessage,
  judgeQuestion,
  taskCompletionMessage,
  type FinalMetric,
  type JudgeOutcome,
  type ScoreJudgeOptions,
} from './judges.js';
import { gtTotals, type GtTotals, type JudgeFailureRecord, type JudgeScoreEntry, type TaskCompletionOutput, type TaskScoreEntry } from './output.js';
import { meanSkippingMissing, trimmedMean } from './scores.js';
import { sum } from '../../core/number-format.js';

interface FinalPrompts {
  taskCompletion: string;
  informationGrounding: string;
}

export interface EvaluateFinalOptions extends ScoreJudgeOptions {
  judges: readonly ModelDriver[];
  prompts: FinalPrompts;
  maxResultChars: number;
  /** Tasks judged at once (each task already asks all judges in parallel). */
  concurrency: number;
  /** Entries from an earlier run; ids found here are not judged again. */
  previous?: Record<string, TaskScoreEntry>;
  files?: { gt: string; predictions: string };
  /** Called after every judged task with the output so far, so a crash loses little. */
  checkpoint?: (output: TaskCompletionOutput) => void;
  onTask?: (id: string, entry: TaskScoreEntry | undefined, failures: JudgeFailureRecord[]) => void;
  infraFailures?: InfraFailures;
  /** num_total as the reference counts it (duplicated GT records included). */
  referenceCompat?: boolean;
}

function toEntry(outcome: Extract<JudgeOutcome, { ok: true }>): JudgeScoreEntry {
  return { name: outcome.name, score: outcome.score, raw: outcome.raw, parse: outcome.parse, attempts: outcome.attempts };
}

async function scoreMetric(
  metric: FinalMetric,
  system: string,
  user: string,
  id: string,
  options: EvaluateFinalOptions,
): Promise<{ judges: JudgeScoreEntry[]; failures: JudgeFailureRecord[] }> {
  const outcomes = await Promise.all(options.judges.map((driver) => askJudge(driver, metric, system, user, id, options)));
  const judges: JudgeScoreEntry[] = [];
  const failures: JudgeFailureRecord[] = [];
  for (const outcome of outcomes) {
    if (outcome.ok) judges.push(toEntry(outcome));
    else failures.push({ id, metric, judge: outcome.name, reason: outcome.reason });
  }
  return { judges, failures };
}

/** One task: all judges must answer both metrics, otherwise the task is a listed failure. */
async function judgeTask(
  gt: GtTask,
  prediction: Prediction,
  options: EvaluateFinalOptions,
): Promise<{ entry?: TaskScoreEntry; failures: JudgeFailureRecord[] }> {
  const { question, source } = judgeQuestion(prediction, gt);
  const completion = await scoreMetric(
    'task_completion',
    options.prompts.taskCompletion,
    taskCompletionMessage(question, prediction, options.maxResultChars),
    gt.id,
    options,
  );
  if (completion.failures.length > 0) return { failures: completion.failures };
  const groundingUser = informationGroundingMessage(question, gt, prediction, options.maxResultChars);
  const grounding = await scoreMetric('information_grounding', options.prompts.informationGrounding, groundingUser, gt.id, options);
  if (grounding.failures.length > 0) return { failures: grounding.failures };
  return {
    failures: [],
    entry: {
      final: trimmedMean(completion.judges.map((judge) => judge.score)),
      judges: completion.judges,
      info_grounding: { final: trimmedMean(grounding.judges.map((judge) => judge.score)), judges: grounding.judges },
      question_source: source,
    },
  };
}

function buildTaskCompletionOutput(
  gtIds: readonly string[],
  scored: ReadonlyMap<string, TaskScoreEntry>,
  missing: readonly string[],
  failures: readonly JudgeFailureRecord[],
  extras: { duplicates: string[]; judges: string[]; lenient: boolean; files?: { gt: string; predictions: string }; infra?: string[]; totals?: GtTotals },
): TaskCompletionOutput {
  const perId: Record<string, TaskScoreEntry> = {};
  for (const id of gtIds) {
    const entry = scored.get(id);
    if (entry) perId[id] = entry;
  }
  const entries = Object.values(perId);
  const completion = entries.map((entry) => entry.final);
  const grounding = entries.flatMap((entry) => (entry.info_grounding ? [entry.info_grounding.final] : []));
  const rate = (values: number[]) => (values.length === 0 ? 0 : meanSkippingMissing(values));
  const failedIds = new Set(failures.map((failure) => failure.id));
  const infra = extras.infra ?? [];
  const denominator = gtIds.length - infra.length;
  return {
    aggregate: {
      ...(extras.totals ?? { num_total: gtIds.length, num_distinct_ids: gtIds.length, num_gt_records: gtIds.length }),
      num_scored: entries.length,
      completion_rate: rate(completion),
      information_grounding_rate: rate(grounding),
      completion_rate_all: denominator <= 0 ? 0 : sum(completion) / denominator,
      information_grounding_rate_all: denominator <= 0 ? 0 : sum(grounding) / denominator,
      num_missing_predictions: missing.length,
      num_judge_failures: failedIds.size,
      num_infra_failures: infra.length,
    },
    pre_id: perId,
    per_id: perId,
    missing_predictions: [...missing],
    infra_failures: [...infra],
    judge_failures: [...failures],
    duplicate_gt_ids: extras.duplicates,
    meta: {
      judges: extras.judges,
      lenient: extras.lenient,
      gt: extras.files?.gt ?? '',
      predictions: extras.files?.predictions ?? '',
      generated_at: new Date().toISOString(),
    },
  };
}

/**
 * Scores every distinct GT id (a duplicated id is judged once, against its last record, and
 * reported in `duplicate_gt_ids`; the reference judged and counted it twice, bug 31).
 */
export async function evaluateFinalAnswers(
  groundTruth: readonly GtTask[],
  predictions: readonly Prediction[],
  options: EvaluateFinalOptions,
): Promise<TaskCompletionOutput> {
  const { byId: gtById, duplicates } = indexById(groundTruth);
  const { byId: predictionById } = indexById(predictions);
  const gtIds = [...gtById.keys()];
  const scored = new Map<string, TaskScoreEntry>(Object.entries(options.previous ?? {}).filter(([id]) => gtById.has(id)));
  const infraIds = options.infraFailures ?? noInfraFailures;
  const unscoredWithout = gtIds.filter((id) => !predictionById.has(id) && !scored.has(id));
  const missing = unscoredWithout.filter((id) => !infraIds.ids.has(id));
  const infra = unscoredWithout.filter((id) => infraIds.ids.has(id));
  const failures: JudgeFailureRecord[] = [];
  const extras = {
    duplicates: duplicates.map((item) => item.id),
    judges: options.judges.map((judge) => judge.id),
    lenient: options.lenient,
    infra,
    totals: gtTotals(groundTruth, options.referenceCompat ?? false),
    ...(options.files ? { files: options.files } : {}),
  };
  const pending = gtIds.filter((id) => !scored.has(id) && predictionById.has(id));
  await mapWithConcurrency(pending, options.concurrency, async (id) => {
    const result = await judgeTask(gtById.get(id) as GtTask, predictionById.get(id) as Prediction, options);
    if (result.entry) scored.set(id, result.entry);
    failures.push(...result.failures);
    options.onTask?.(id, result.entry, result.failures);
    options.checkpoint?.(buildTaskCompletionOutput(gtIds, scored, missing, failures, extras));
  });
  return buildTaskCompletionOutput(gtIds, scored, missing, failures, extras);
}
