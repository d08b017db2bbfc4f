// The report's "what was run" tables: one row per model run from its run manifest (model, kind,
// run id, dates, task counts, loop and sampling settings, commit), the grader versions the code
// and the outputs carry, and the cost and tokens of the newest batch from the run store. Every
// path shown is relative to the repository (report-paths.ts), never a machine path.
import { existsSync } from 'node:fs';
import type { z } from 'zod';
import { runManifestSummaryPart } from '../results/run-manifest.js';
import { GRADER_VERSIONS } from '../results/grader-versions.js';
import { loadJsonFile } from '../tasks/load-json.js';
import { syntheticAgentKind } from './leaderboard.js';
import type { ModelResults } from './load-results.js';
import { shownPath } from './report-paths.js';
import type { Table } from './tables.js';

const manifestSchema = runManifestSummaryPart;

const dash = '—';
const shownNumber = (value: unknown): string => (typeof value === 'number' ? String(value) : dash);

/** Runs recorded before the surface was named offered every tool: the m3bench surface. */
function toolSurfaceOf(manifest: z.output<typeof manifestSchema>): string {
  const hash = manifest.toolSurface?.hash ?? manifest.toolsHash;
  return `tool surface ${manifest.toolSurface?.name ?? 'm3bench'}${hash ? ` (${hash.slice(0, 12)})` : ''}`;
}

function settingsOf(manifest: z.output<typeof manifestSchema>): string {
  const options = manifest.options;
  const parts = [
    `agent ${typeof options.agent === 'string' ? options.agent : dash}`,
    `max rounds ${shownNumber(options.maxStep)}`,
    `parallel calls ${shownNumber(options.maxConcurrent)}`,
    `top tools ${options.topTools === 0 ? 'all' : shownNumber(options.topTools)}`,
    `max new tokens ${shownNumber(options.maxNewTokens)}`,
    `temperature ${manifest.sampling?.temperature ?? 'provider default'}`,
    `seed ${manifest.sampling?.seed ?? 'none'}`,
    toolSurfaceOf(manifest),
  ];
  return parts.join(', ');
}

/** One row per model whose prediction file has a run manifest beside it. */
export function runsTable(models: readonly ModelResults[], manifestFileOf: (model: string) => string, root: string, viewerUrl: string): Table | undefined {
  const rows = models.flatMap((results) => {
    const file = manifestFileOf(results.model);
    if (!existsSync(file)) return [];
    const parsed = manifestSchema.safeParse(loadJsonFile(file));
    if (!parsed.success) return [[results.model, 'unreadable manifest', shownPath(file, root), dash, dash, dash, dash, dash, dash, dash]];
    const manifest = parsed.data;
    const counts = manifest.counts;
    return [
      [
        manifest.model,
        syntheticAgentKind(manifest.model) ?? 'model',
        manifest.runId,
        manifest.startedAt,
        manifest.finishedAt ?? 'not finished',
        `${manifest.condition?.name ?? 'baseline'}${manifest.trials && manifest.trials > 1 ? `, trial ${manifest.trial ?? '?'} of ${manifest.trials}` : ''}`,
        manifest.tasksFile ? shownPath(manifest.tasksFile, root) : dash,
        `${shownNumber(counts.tasks)} tasks: ${shownNumber(counts.done)} done, ${shownNumber(counts.modelFailures)} model failures, ${shownNumber(counts.infraFailures)} infrastructure`,
        settingsOf(manifest),
        `${manifest.gitCommit?.slice(0, 10) ?? 'unknown'} (m3bench ${manifest.versions.m3bench ?? '?'})`,
      ],
    ];
  });
  if (rows.length === 0) return undefined;
  return {
    id: 'runs',
    title: 'Runs',
    header: ['model', 'kind', 'run id', 'started (UTC)', 'finished (UTC)', 'condition', 'tasks file', 'tasks', 'settings', 'commit'],
    rows,
    link: { column: 2, prefix: `${viewerUrl}/#/run/` },
    note: 'From each run manifest (results/<label>_test_mcp_fuzzy.manifest.json). An oracle or synthetic agent checks the harness and the metrics; its numbers are not model results. A run id opens the run in `m3 view` when it runs.',
  };
}

/** The grader version of each layer in this code, and the versions the step outputs recorded. */
export function graderVersionsTable(models: readonly ModelResults[]): Table {
  const recorded = [...new Set(models.flatMap((results) => (results.step ? [results.step.graderVersion ?? 'not recorded'] : [])))].sort();
  return {
    id: 'grader-versions',
    title: 'Grader versions',
    header: ['layer', 'version (this code)', 'recorded in the outputs'],
    rows: Object.entries(GRADER_VERSIONS).map(([layer, version]) => [layer, version, layer === 'step' && recorded.length > 0 ? recorded.join(', ') : dash]),
    note: "A version changes whenever that layer's grading changes (src/results/grader-versions.ts); numbers of different versions are not comparable.",
  };
}
