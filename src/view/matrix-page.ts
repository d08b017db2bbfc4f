// The matrix page: tasks × runs (each run is one model and condition), per cell the task's
// success under the one success rule (passes / decided trials; the same outcomes each run's
// pass@1 counts) and its step recall (mean over the trials), from the same task rows as the run
// page. Tasks where the runs disagree come first, then those every run fails, then the rest.
import { HttpError } from '../web/http-kit.js';
import { listRuns } from '../store/index.js';
import { runOf, type ViewSources } from './pages.js';
import { indexedRows } from './task-index.js';

/** The most runs one matrix shows (columns); pick others with ?runs=a,b,... */
const MATRIX_MAX_RUNS = 12;

interface Cell {
  trials: number;
  /** Trials that passed / trials decided (passed or failed); null: none decided. */
  passed: number;
  decided: number;
  /** Mean step recall over the trials the step evaluation scored; null: none. */
  recall: number | null;
  status: string;
}

function cellsOf(sources: ViewSources, runId: string): Map<string, Cell> {
  const cells = new Map<string, Cell & { recallSum: number; recallCount: number }>();
  for (const { row } of indexedRows(sources, runOf(sources, runId))) {
    const cell = cells.get(row.taskId) ?? { trials: 0, passed: 0, decided: 0, recall: null, status: row.status, recallSum: 0, recallCount: 0 };
    cell.trials += 1;
    if (row.passed !== null) {
      cell.decided += 1;
      if (row.passed) cell.passed += 1;
    }
    if (row.step) {
      cell.recallSum += row.step.recall;
      cell.recallCount += 1;
    }
    if (row.status !== 'ok') cell.status = row.status;
    cells.set(row.taskId, cell);
  }
  return new Map(
    [...cells].map(([taskId, { recallSum, recallCount, ...cell }]) => [taskId, { ...cell, recall: recallCount ? recallSum / recallCount : null }]),
  );
}

function rankOf(cells: Array<Cell | null>): number {
  const rates = cells.filter((cell): cell is Cell => cell !== null && cell.decided > 0).map((cell) => cell.passed / cell.decided);
  if (rates.length > 1 && new Set(rates).size > 1) return 0;
  return rates.length > 0 && rates.every((rate) => rate === 0) ? 1 : 2;
}

export function matrixPage(sources: ViewSources, requested: string[]) {
  const runIds = requested.length > 0 ? requested : listRuns(sources.store).map((run) => run.runId);
  if (runIds.length > MATRIX_MAX_RUNS && requested.length > 0)
    throw new HttpError(400, `the matrix shows at most ${MATRIX_MAX_RUNS} runs, got ${runIds.length}`, 'bad_request');
  const shown = runIds.slice(0, MATRIX_MAX_RUNS);
  const runs = shown.map((runId) => runOf(sources, runId));
  const columns = shown.map((runId) => cellsOf(sources, runId));
  const taskIds = [...new Set(columns.flatMap((cells) => [...cells.keys()]))];
  const tasks = taskIds
    .map((taskId) => ({ taskId, cells: columns.map((cells) => cells.get(taskId) ?? null) }))
    .map((task) => ({ ...task, rank: rankOf(task.cells) }))
    .sort((a, b) => a.rank - b.rank || a.taskId.localeCompare(b.taskId));
  return {
    runs: runs.map((run) => ({ runId: run.runId, model: run.modelLabel, condition: run.condition, trials: run.trials })),
    omittedRuns: runIds.length - shown.length,
    tasks,
  };
}
