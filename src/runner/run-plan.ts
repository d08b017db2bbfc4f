// The plan of one `m3 run` / `m3 bench` invocation before anything starts: its cells (model x
// condition x max-steps), their run ids, the batch id and the run folder, and every refusal that
// can be known up front (a run id already in the store, predictions that would be clobbered, a
// run another process holds), so a refused run is refused before any server starts and leaves
// no row behind.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../errors/index.js';
import { modelLabel } from '../llm/registry.js';
import { runFolder, storeFileOf } from '../results/layout.js';
import { getRun, listRuns, openStore } from '../store/index.js';
import { cellLabel, type ConditionSet } from './conditions.js';
import { PredictionFile } from './prediction-file.js';
import type { RunDefinition } from './run-definition.js';
import { assertRunNotHeld } from './run-lease.js';
import { trialOutputFile } from './run-trial.js';

export interface PlannedCell {
  model: string;
  condition: ConditionSet;
  maxStep: number;
  labelSuffix: string;
  label: string;
  runId: string;
}

export interface RunPlan {
  cells: PlannedCell[];
  batchId: string;
  /** The folder this run owns: `<results-dir>/runs/<batch id>/`, or `--run-dir`. */
  runDir: string;
  storeFile: string;
}

function timestamp(): string {
  return new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

/** A fresh batch id: the start time, with `-2`, `-3` ... when a run of that second exists. */
function freshBatchId(resultsDir: string): string {
  const base = timestamp();
  for (let n = 1; ; n += 1) {
    const id = n === 1 ? base : `${base}-${n}`;
    if (!existsSync(runFolder(resultsDir, id))) return id;
  }
}

/** The batch of the latest run of `label`: what a `--resume` without a run id continues. */
function latestBatchOf(label: string, storeFile: string): { batchId: string; runId: string } {
  const latest = existsSync(storeFile) ? withStore(storeFile, (store) => listRuns(store, { modelLabel: label, limit: 1 })[0]) : undefined;
  if (!latest) throw new ConfigError(`--resume: no earlier run of ${label} in ${storeFile}; pass the run id (--resume <run-id>)`);
  return { batchId: latest.batchId ?? latest.runId, runId: latest.runId };
}

function withStore<T>(storeFile: string, use: (store: ReturnType<typeof openStore>) => T): T {
  const store = openStore(storeFile);
  try {
    return use(store);
  } finally {
    store.close();
  }
}

/** --run-id / --resume <id> / M3_RUN_ID, else a fresh id (or, for a bare --resume, the latest run's). */
function explicitBase(definition: RunDefinition, envRunId: string): string | undefined {
  if (typeof definition.resume === 'string' && definition.resume !== '') {
    if (definition.runId && definition.runId !== definition.resume)
      throw new ConfigError(`--resume ${definition.resume} and --run-id ${definition.runId} name different runs; give one`);
    return definition.resume;
  }
  return definition.runId ?? (envRunId || undefined);
}

export function planRun(definition: RunDefinition, axes: { models: string[]; conditions: ConditionSet[]; maxSteps: number[] }, envRunId: string): RunPlan {
  const resultsDir = path.resolve(definition.resultsDir);
  const storeFile = path.resolve(definition.store ?? (definition.runDir ? storeFileOf(definition.runDir) : storeFileOf(resultsDir)));
  const shape = axes.models.flatMap((model) =>
    axes.conditions.flatMap((condition) =>
      axes.maxSteps.map((maxStep) => {
        // A swept K adds `.k<K>` to the label (MCP-RADAR's accuracy-vs-K sweep).
        const labelSuffix = axes.maxSteps.length > 1 ? `.k${maxStep}` : '';
        return { model, condition, maxStep, labelSuffix, label: `${cellLabel(modelLabel(model), condition)}${labelSuffix}` };
      }),
    ),
  );
  let base = explicitBase(definition, envRunId);
  let firstRunId: string | undefined;
  if (!base && definition.resume) {
    const latest = latestBatchOf(shape[0]?.label ?? '', storeFile);
    base = latest.batchId;
    firstRunId = latest.runId;
  }
  const batchId = base ?? freshBatchId(resultsDir);
  const cells = shape.map((cell, index) => ({ ...cell, runId: index === 0 && firstRunId ? firstRunId : `${batchId}.${cell.label}` }));
  const runDir = definition.runDir ? path.resolve(definition.runDir) : runFolder(resultsDir, batchId);
  return { cells, batchId, runDir, storeFile };
}

/** Prediction files this plan would write, per cell and trial. */
function plannedOutputs(definition: RunDefinition, plan: RunPlan, shard: { index: number; count: number } | undefined): string[] {
  return plan.cells.flatMap((cell) =>
    Array.from({ length: Math.max(1, definition.trials) }, (_, index) =>
      trialOutputFile(
        { resultsDir: plan.runDir, ...(definition.output ? { output: definition.output } : {}), ...(shard ? { shard } : {}) },
        cell.label,
        index + 1,
        definition.trials,
      ),
    ),
  );
}

/**
 * Everything that would refuse this run later, checked now (before drivers, servers or rows):
 * a fresh run whose run id the store already has, or whose prediction files hold records
 * (without --overwrite); a resume of a run another live process writes.
 */
export function refuseBeforeStart(definition: RunDefinition, plan: RunPlan, shard: { index: number; count: number } | undefined): void {
  if (!definition.resume && !definition.overwrite) {
    for (const file of plannedOutputs(definition, plan, shard)) {
      const existing = existsSync(file) ? new PredictionFile(file).load() : 0;
      if (existing > 0)
        throw new ConfigError(`${file} already holds ${existing} prediction(s): pass --resume ${plan.batchId} to continue, or --overwrite to start again`);
    }
  }
  if (!existsSync(plan.storeFile)) return;
  withStore(plan.storeFile, (store) => {
    for (const cell of plan.cells) {
      if (definition.resume) assertRunNotHeld(store, cell.runId);
      else if (getRun(store, cell.runId))
        throw new ConfigError(
          `run id "${cell.runId}" already exists in ${plan.storeFile}: pass --resume ${plan.batchId} to continue it, or choose another --run-id`,
        );
    }
  });
}
