// State checks on a model's own run: the runner (src/runner/run-task.ts) clears the task's mock
// databases before the episode, so an earlier attempt or trial of the same task under the same
// run id cannot leak into this one, and checks the state the episode left BEFORE the workspace is
// removed. The results travel in the prediction record as `state_results` (and so in the run
// store's prediction column); `m3 eval task` and the trials layer read them from there
// (src/eval/task/outcome-checks.ts).
import { rmSync } from 'node:fs';
import { z } from 'zod';
import { taskDatabaseFile } from '../../core/task-database-file.js';
import { runStateChecks, type TaskState } from './run-state-checks.js';
import { describeStateCheck, type StateCheck } from '../../tasks/state-check.js';

/** The prediction field holding the state-check results of the episode. */
export const STATE_RESULTS_FIELD = 'state_results';

export const stateResultSchema = z.object({ check: z.string(), passed: z.boolean(), found: z.number(), reason: z.string() }).loose();

export type StateResult = z.output<typeof stateResultSchema>;

/** Removes the databases the checks read (and SQLite's side files), so the episode starts from its seed. */
export function resetTaskState(state: TaskState, checks: readonly StateCheck[]): void {
  for (const name of new Set(checks.map((check) => check.db))) {
    const file = taskDatabaseFile(state, name);
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${file}${suffix}`, { force: true });
  }
}

/** The checks on the state the episode left, each with why it passed or failed. */
export function checkEpisodeState(state: TaskState, checks: readonly StateCheck[]): StateResult[] {
  let outcomes: ReturnType<typeof runStateChecks>;
  try {
    outcomes = runStateChecks(state, checks);
  } catch (error) {
    // A database that cannot be opened is a failed check with the reason, never a lost episode.
    const reason = `the task's database could not be read: ${error instanceof Error ? error.message : String(error)}`;
    return checks.map((check) => ({ check: describeStateCheck(check), passed: false, found: 0, reason }));
  }
  return outcomes.map((outcome) => ({
    check: outcome.check,
    passed: outcome.problem === undefined,
    found: outcome.found,
    reason: outcome.problem ?? `holds (found ${outcome.found})`,
  }));
}
