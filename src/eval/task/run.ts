// One task-level evaluation from files to files, as `m3 eval task` and scripts/evaluate_task.sh
// run it: load the GT (and task file), the predictions and the run manifest; take the step
// alignment and call labels from the other layers' outputs (or compute them); build one record
// per scored task; judge what the taxonomy rules leave open (optional); aggregate; write.
import path from 'node:path';
import type { ToolCatalog } from '../call/catalog.js';
import { defaultOutputFile } from '../call/output.js';
import { EvaluationError } from '../../errors/index.js';
import { expectsError } from '../../tasks/verify-static.js';
import { indexById, loadFuzzyTasks } from '../../tasks/load.js';
import type { FuzzyTask, GtTask, Prediction } from '../../tasks/schemas.js';
import { RuleRegistry } from '../rules/evaluate.js';
import { emptyTrajectory } from '../step/evaluate.js';
import { loadTrajectories, type Trajectory } from '../step/trajectory.js';
import { aggregateBy, aggregateTasks, countTaxonomy } from './aggregate.js';
import { alignTasks } from './alignment.js';
import { loadCallLabels } from './call-labels.js';
import { SUCCESS_RULE, TASK_GRADER_VERSION, writeTaskOutputs, type TaskEvalDocument } from './output.js';
import { readTaskTokens } from './resources.js';
import { manifestFileFor, readRunInfo } from './run-info.js';
import { storeFileForPredictions } from '../../results/layout.js';
import { applyJudge, type TaxonomyJudgeOptions } from './taxonomy-judge.js';
import { buildTaskRecord, taskSpecOf, type TaskRecord, type TaskSpec } from './task-record.js';
import { loadFinalScores, type FinalScores } from './final-scores.js';

export interface TaskRunOptions {
  /** Ground truth; optional when every prediction carries its own evaluators (MCP-Universe tasks). */
  gtFile?: string;
  predFile: string;
  /** Task file, for fields the GT does not carry (output_format, evaluators, answer) and to restrict the ids. */
  tasksFile?: string;
  outputDir?: string;
  stepResultsFile?: string;
  callsFile?: string;
  manifestFile?: string;
  /** `m3 eval final`'s outputs a `success.final` threshold reads (default: beside the predictions). */
  finalFile?: string;
  proxyFile?: string;
  storeFile?: string;
  catalog?: ToolCatalog;
  judge?: TaxonomyJudgeOptions;
  /** `auto`: a record's `domain` field, else its tier, else its type. */
  domainField?: 'auto' | 'domain' | 'tier' | 'type';
  registry?: RuleRegistry;
  warn?: (message: string) => void;
}

function domainOf(record: GtTask | FuzzyTask | undefined, field: NonNullable<TaskRunOptions['domainField']>, type: string): string {
  const stated = (record as { domain?: unknown } | undefined)?.domain;
  const domain = typeof stated === 'string' && stated.trim() !== '' ? stated.trim() : undefined;
  if (field === 'domain') return domain ?? 'UNKNOWN';
  if (field === 'tier') return record?.tier ?? 'UNKNOWN';
  if (field === 'type') return type;
  return domain ?? record?.tier ?? type;
}

function expectErrorFlags(task: GtTask | undefined): boolean[] {
  return (task?.steps ?? []).flatMap((step) => step.calls.map((call) => expectsError(call)));
}

type DocumentHeader = Pick<TaskEvalDocument, 'inputs' | 'run' | 'excluded' | 'coverage'>;

/** The final-answer scores, read only when some task states a `success.final` threshold. */
function finalScoresFor(specs: readonly TaskSpec[], options: TaskRunOptions, predFile: string): FinalScores | undefined {
  if (!specs.some((spec) => spec.final)) return undefined;
  return loadFinalScores({
    judges: path.resolve(options.finalFile ?? defaultOutputFile(predFile, 'taskcompletion.json')),
    proxy: path.resolve(options.proxyFile ?? defaultOutputFile(predFile, 'final_proxy.json')),
  });
}

function buildDocument(records: TaskRecord[], header: DocumentHeader): TaskEvalDocument {
  const perTier = aggregateBy(records, (record) => record.tier);
  return {
    grader_version: TASK_GRADER_VERSION,
    success_rule: SUCCESS_RULE,
    ...header,
    not_evaluated: records.filter((record) => record.success === null).map((record) => ({ id: record.id, reasons: record.not_evaluated })),
    aggregate: { ...aggregateTasks(records), exception_recovery_rate: perTier.exception?.recovery_rate ?? { rate: null, numerator: 0, denominator: 0 } },
    per_tier: perTier,
    per_domain: aggregateBy(records, (record) => record.domain),
    per_archetype: aggregateBy(records, (record) => (record.archetype === 'none' ? null : record.archetype)),
    taxonomy: countTaxonomy(records),
    per_task: records,
  };
}

export async function runTaskFiles(options: TaskRunOptions): Promise<{ document: TaskEvalDocument; files: { json: string; csv: string } }> {
  const warn = options.warn ?? (() => undefined);
  const predFile = path.resolve(options.predFile);
  const outputDir = options.outputDir ?? path.dirname(defaultOutputFile(predFile, 'task_eval.json'));
  const gt = options.gtFile ? loadTrajectories(options.gtFile, 'gt') : undefined;
  const pred = loadTrajectories(predFile, 'pred');
  if (gt && gt.byId.size === 0) throw new EvaluationError(`${options.gtFile}: no ground-truth task with a non-empty id`);
  const gtById = gt?.byId ?? new Map<string, Trajectory>();
  const gtRecords = indexById((gt?.raw ?? []) as GtTask[]).byId;
  const predictions = indexById(pred.raw as Prediction[]).byId;
  // A prediction that carries its own evaluators (an MCP-Universe task) is scored without ground truth.
  const selfChecked = [...predictions.values()].filter((record) => !gtById.has(record.id) && (record.evaluators?.length ?? 0) > 0).map((record) => record.id);
  if (gtById.size === 0 && selfChecked.length === 0)
    throw new EvaluationError(`${predFile}: no --gt given and no prediction carries its own evaluators: nothing to score`);
  const taskRecords = options.tasksFile ? indexById(loadFuzzyTasks(options.tasksFile)).byId : undefined;
  const run = readRunInfo(options.manifestFile ?? manifestFileFor(predFile));
  const infra = run.infraFailures.filter((failure) => !predictions.has(failure.id));
  const excludedIds = new Set(infra.map((failure) => failure.id));
  const ids = [...gtById.keys(), ...selfChecked].filter((id) => !excludedIds.has(id) && (!taskRecords || taskRecords.has(id))).sort();
  if (infra.length > 0)
    warn(`${infra.length} task(s) ended as infrastructure failures and are excluded from every denominator: ${infra.map((failure) => failure.id).join(', ')}`);

  const stepResultsFile = options.stepResultsFile ?? defaultOutputFile(predFile, 'results_eval.json');
  const alignments = await alignTasks(ids, gtById, pred.byId, stepResultsFile);
  if (alignments.computedWith)
    warn(
      `step alignment computed here with ${alignments.computedWith} for ids ${alignments.file ? `missing from ${alignments.file}` : `(no ${stepResultsFile})`}`,
    );
  const labels = await loadCallLabels(predictions, options.callsFile ?? defaultOutputFile(predFile, 'callanalysis.json'), options.catalog);
  const storeFile = options.storeFile ?? storeFileForPredictions(predFile);
  const tokens = readTaskTokens(storeFile, run.runId, run.model);
  const registry = options.registry ?? new RuleRegistry();
  const domainField = options.domainField ?? 'auto';

  const specs = new Map(ids.map((id) => [id, taskSpecOf(gtRecords.get(id), taskRecords?.get(id), predictions.get(id))]));
  const finalScores = finalScoresFor([...specs.values()], options, predFile);
  const records: TaskRecord[] = ids.map((id) => {
    const gtTrajectory = gtById.get(id) ?? emptyTrajectory(id, pred.byId.get(id)?.type);
    const gtRecord = gtRecords.get(id);
    const taskRecord = taskRecords?.get(id);
    return buildTaskRecord(
      {
        id,
        tier: gtRecord?.tier ?? taskRecord?.tier,
        type: gtTrajectory.type,
        domain: domainOf(gtRecord ?? taskRecord, domainField, gtTrajectory.type),
        spec: specs.get(id) as TaskSpec,
        gt: gtTrajectory,
        gtExpectError: expectErrorFlags(gtRecord),
        prediction: predictions.get(id),
        pred: pred.byId.get(id) ?? emptyTrajectory(id, gtTrajectory.type),
        alignment: alignments.byId.get(id),
        labels: labels.byId.get(id) ?? [],
        tokens: tokens.get(id),
        ...(finalScores ? { finalScores } : {}),
      },
      registry,
    );
  });
  if (options.judge) await applyJudge(records, predictions, options.judge);

  const document = buildDocument(records, {
    inputs: {
      predictions: predFile,
      gt: options.gtFile ? path.resolve(options.gtFile) : null,
      tasks: options.tasksFile ? path.resolve(options.tasksFile) : null,
      step_results: alignments.file ?? null,
      call_labels: { source: labels.source, file: labels.file ?? null },
      alignment: {
        file: alignments.file ?? null,
        computed_with: alignments.computedWith ?? null,
        tau_strong: alignments.thresholds.tauStrong,
        tau_weak: alignments.thresholds.tauWeak,
      },
      manifest: run.manifest,
      store: tokens.size > 0 ? storeFile : null,
      judge: options.judge?.driver.id ?? null,
      final_scores: finalScores ? { judges: finalScores.files.judges, proxy: finalScores.files.proxy } : null,
    },
    run: { run_id: run.runId, model: run.model, max_step: run.maxStep, condition: run.condition },
    excluded: { count: infra.length, infra_failures: infra },
    coverage: {
      gt_ids: gtById.size,
      scored: records.length,
      missing_predictions: records.filter((record) => record.missing_prediction).map((record) => record.id),
      extra_prediction_ids: [...predictions.keys()].filter((id) => !gtById.has(id) && !selfChecked.includes(id)).sort(),
    },
  });
  return { document, files: writeTaskOutputs(outputDir, document) };
}
