// What `m3 run` prints at the end and its exit status, so a script can tell a run that
// produced scores from one that did not:
//   0    every model ran its tasks (some may have failed; those are data)
//   3    a model's every finished task was an infrastructure failure: nothing to score
//   130  stopped by Ctrl-C / SIGTERM (or another process took the run over): resume it
// Bad input (an empty task list, a bad flag) exits 2 before anything runs, like every M3Error.
import path from 'node:path';
import { TaskFileError } from '../errors/index.js';
import type { Logger } from '../log/logger.js';
import type { RunModelReport } from '../runner/run-model.js';
import { mockedShare } from '../results/mocked-share.js';
import { selectShard, type TaskSet } from '../runner/task-set.js';
import type { RunBudget } from '../runner/run-cost.js';
import { interruptedExitCode } from './stop-signal.js';
import { formatPercent, shareOf } from '../core/number-format.js';

const nothingScoredExitCode = 3;

/** Refuses a task file (or shard) with no task in it, naming what was empty. */
export function requireTasks(taskSet: TaskSet, shard: { index: number; count: number } | undefined): void {
  if (taskSet.tasks.length === 0) throw new TaskFileError(`${taskSet.tasksFile}: no tasks to run (the file holds no task with an id)`);
  if (shard && selectShard(taskSet.tasks, shard).length === 0) {
    throw new TaskFileError(
      `--shard ${shard.index}/${shard.count}: this slice of the ${taskSet.tasks.length} task(s) in ${taskSet.tasksFile} is empty; use fewer shards`,
    );
  }
}

function percent(part: number, whole: number): string {
  return `${part}/${whole} (${formatPercent(shareOf(part, whole), { trim: true })})`;
}

/** `--max-cost`: one line saying whether the run stopped scheduling tasks, and what it paid. */
function maxCostLine(budget: RunBudget, reports: readonly RunModelReport[]): string {
  const notStarted = reports.reduce((sum, report) => sum + report.result.notStarted.length, 0);
  return budget.exhausted()
    ? `max cost: --max-cost $${budget.maxUsd} reached ($${budget.spentUsd.toFixed(4)} paid): no new task was started; ${notStarted} task(s) not started\n`
    : `max cost: $${budget.spentUsd.toFixed(4)} paid of --max-cost $${budget.maxUsd}\n`;
}

/**
 * One row per trial file (a single-trial run has one per model and condition), saying which trial
 * of how many. With the fallback layer on, each row gives that trial's mocked calls and tasks,
 * counted from its prediction file by the one computation every output uses
 * (src/results/mocked-share.ts), never the run's trials pooled.
 */
export function printSummary(reports: readonly RunModelReport[], json: boolean | undefined, fallbackOn = false, maxCost?: RunBudget): void {
  const rows = reports.flatMap((report) =>
    report.trials.map((trial) => ({ report, trial, share: fallbackOn ? mockedShare(trial.label, trial.output, trial.manifestFile) : undefined })),
  );
  if (json) {
    const records = rows.map(({ report, trial, share }) => ({
      model: report.model,
      condition: report.condition,
      trial: trial.trial,
      trials: report.trials.length,
      seed: trial.seed ?? null,
      runId: report.runId,
      output: trial.output,
      manifest: trial.manifestFile,
      ...trial.result.progress,
      skippedResumed: trial.result.skipped.length,
      notStarted: trial.result.notStarted.length,
      ...(report.stopped ? { stopped: report.stopped } : {}),
      ...(fallbackOn ? { fallback: share ?? null } : {}),
      ...(report.placeholderImages ? { placeholderImageTasks: Object.keys(report.placeholderImages).length } : {}),
      ...(trial.manifest.cost ? { cost: trial.manifest.cost } : {}),
      ...(maxCost ? { maxCost: { limitUsd: maxCost.maxUsd, spentUsd: maxCost.spentUsd, reached: maxCost.exhausted() } } : {}),
    }));
    process.stdout.write(`${JSON.stringify(records, null, 2)}\n`);
    return;
  }
  // done / model-fail / infra-fail count tasks of that trial (one episode each), not episodes pooled over trials.
  process.stdout.write(
    `model                          trial  done  model-fail  infra-fail  tokens      predictions${fallbackOn ? '  mocked calls / tasks (this trial)' : ''}\n`,
  );
  for (const { report, trial, share } of rows) {
    const p = trial.result.progress;
    const mocked = fallbackOn ? `  ${share ? `${percent(share.mockedCalls, share.calls)} / ${percent(share.mockedTasks, share.tasks)}` : '-'}` : '';
    process.stdout.write(
      `${trial.label.padEnd(30)} ${`${trial.trial}/${report.trials.length}`.padStart(5)} ${String(p.done).padStart(5)}  ${String(p.failedModel).padStart(10)}  ${String(p.failedInfra).padStart(10)}  ${String(p.usage.inputTokens + p.usage.outputTokens).padStart(10)}  ${path.relative(process.cwd(), trial.output)}${mocked}\n`,
    );
  }
  for (const report of reports) {
    if (!report.placeholderImages) continue;
    const count = Object.keys(report.placeholderImages).length;
    process.stdout.write(
      `${report.label}: PLACEHOLDER IMAGES: ${count} task(s) ran on labelled stand-ins for missing images (pipeline check; their scores say nothing about the model)\n`,
    );
  }
  for (const { trial } of rows) {
    const line = costLine(trial.label, trial.manifest.cost);
    if (line) process.stdout.write(line);
  }
  if (maxCost) process.stdout.write(maxCostLine(maxCost, reports));
}

/** `cost <label>: $P paid, $S served by the cache (saved); limits stopped: tokens T, messages M, cost C`, or nothing when there is nothing to say. */
function costLine(label: string, cost: RunModelReport['trials'][number]['manifest']['cost']): string | undefined {
  if (!cost) return undefined;
  const { tokens, messages, cost: byCost } = cost.limited;
  const limited = tokens + messages + byCost > 0 ? `; stopped by a limit: tokens ${tokens}, messages ${messages}, cost ${byCost}` : '';
  const served = cost.servedTokens.input + cost.servedTokens.output > 0;
  const batched = (cost.batchTokens?.input ?? 0) + (cost.batchTokens?.output ?? 0) > 0;
  if (cost.paidUsd === null && !served && !limited) return undefined;
  const usd = (value: number | null | undefined) => (value === null || value === undefined ? 'n/a (no price)' : `$${value.toFixed(4)}`);
  const batch = batched ? `, ${usd(cost.savedByBatchUsd)} saved by batch pricing` : '';
  return `cost ${label}: ${usd(cost.paidUsd)} paid${served ? `, ${usd(cost.savedUsd)} served by the model cache (saved)` : ''}${batch}${limited}\n`;
}

/** The run id to pass back to --run-id (m3 run appends the model label itself). */
function baseRunId(report: RunModelReport): string {
  const suffix = `.${report.label}`;
  return report.runId.endsWith(suffix) ? report.runId.slice(0, -suffix.length) : report.runId;
}

function codesOf(report: RunModelReport): string {
  const counts = new Map<string, number>();
  for (const failure of report.result.failures) counts.set(failure.verdict.code, (counts.get(failure.verdict.code) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([code, count]) => `${code} x${count}`)
    .join(', ');
}

/** Explains a stopped or unscorable run on stderr and returns the exit status. */
export function reportOutcome(reports: readonly RunModelReport[], modelsRequested: number, logger: Logger): number {
  const stopped = reports.find((report) => report.stopped);
  if (stopped) {
    const { progress, notStarted } = stopped.result;
    const skipped = modelsRequested - reports.length;
    logger.warn(
      `run ${stopped.runId} ${stopped.stopped}: ${progress.done} task(s) finished, ${progress.interrupted} interrupted, ${notStarted.length} not started` +
        `${skipped > 0 ? `, ${skipped} later model(s) not run` : ''}; the store and ${path.relative(process.cwd(), stopped.output)} hold every finished task. ` +
        `Resume with the same command plus --resume --run-id ${baseRunId(stopped)}`,
    );
    return interruptedExitCode;
  }
  let status = 0;
  for (const report of reports) {
    const { done, failedInfra } = report.result.progress;
    if (done > 0 && failedInfra === done) {
      logger.error(
        `${report.label}: every task ended in an infrastructure failure (${codesOf(report)}), so nothing was scored; ` +
          `see ${path.relative(process.cwd(), report.manifestFile)} for each task's error`,
      );
      status = nothingScoredExitCode;
    }
  }
  return status;
}
