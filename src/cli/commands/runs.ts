// `m3 runs list` / `m3 runs show <run-id>`: the run history as the store keeps it. The store is
// the one source of truth for what happened in a run (runs, attempts, every model request and
// tool call, who holds the lease); evaluated scores live in the result JSON files that
// `m3 summary` and `m3 report` read.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { StoreError } from '../../errors/index.js';
import {
  episodesForRun,
  getRun,
  getRunLease,
  imageAuditOf,
  listRuns,
  modelCallsForEpisode,
  openStore,
  runSummary,
  toolCallsForEpisode,
  type EpisodeRow,
  type Store,
} from '../../store/index.js';
import { positiveInteger } from '../option-parsers.js';
import { registerRunsExportCommand } from './runs-export.js';
import { imageAuditLine, printImageAudit } from './runs-images.js';

interface StoreFlags {
  store: string;
  json?: boolean;
}

function withStore<T>(file: string, read: (store: Store) => T): T {
  const resolved = path.resolve(file);
  if (!existsSync(resolved)) throw new StoreError(`no run store at ${resolved}; pass --store <file> (m3 run writes <results-dir>/m3bench.sqlite)`);
  const store = openStore(resolved, { readonly: true });
  try {
    return read(store);
  } finally {
    store.close();
  }
}

function listCommand(flags: StoreFlags & { model?: string; limit: number }): void {
  const rows = withStore(flags.store, (store) =>
    listRuns(store, { ...(flags.model ? { modelLabel: flags.model } : {}), limit: flags.limit }).map((run) => {
      const totals = runSummary(store, run.runId);
      const lease = getRunLease(store, run.runId);
      return {
        runId: run.runId,
        model: run.modelSpec,
        status: run.status,
        startedAt: run.startedAt,
        finishedAt: run.finishedAt,
        tasks: totals.tasks,
        byStatus: totals.byStatus,
        writer: lease ? { pid: lease.pid, host: lease.host, heartbeatAt: lease.heartbeatAt } : null,
      };
    }),
  );
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return;
  }
  if (rows.length === 0) {
    process.stdout.write('no runs in this store\n');
    return;
  }
  process.stdout.write(`${'run id'.padEnd(40)} ${'status'.padEnd(11)} tasks    ok  model  infra  timeout  running  started\n`);
  for (const row of rows) {
    const s = row.byStatus;
    const counts = [s.ok, s.model_failure, s.infra_failure, s.timeout, s.running].map((value, index) => String(value).padStart([5, 6, 6, 8, 8][index] ?? 5));
    const writer = row.writer ? `  (written by pid ${row.writer.pid} on ${row.writer.host})` : '';
    process.stdout.write(`${row.runId.padEnd(40)} ${row.status.padEnd(11)} ${String(row.tasks).padStart(5)} ${counts.join(' ')}  ${row.startedAt}${writer}\n`);
  }
}

function describeEpisode(store: Store, episode: EpisodeRow): string[] {
  const head = `${episode.taskId} attempt ${episode.attempt}: ${episode.status}${episode.errorCode ? ` (${episode.errorCode})` : ''}, ${episode.rounds} round(s), ${episode.toolCallCount} tool call(s)`;
  const lines = [head];
  if (episode.endStatus) lines.push(`  ended: ${episode.endStatus}${episode.endDetail ? ` (${episode.endDetail})` : ''}`);
  if (episode.errorMessage) lines.push(`  error: ${episode.errorMessage}`);
  const modelCalls = modelCallsForEpisode(store, episode.id);
  lines.push(
    `  model requests: ${modelCalls.length} (${modelCalls.filter((call) => call.errorClass).length} failed, ${modelCalls.filter((call) => call.attempts.length > 1).length} retried)`,
  );
  // A workflow's rows name their agent (migration 013): requests per agent in order of first use.
  const byAgent = new Map<string, number>();
  for (const call of modelCalls) if (call.agent) byAgent.set(call.agent, (byAgent.get(call.agent) ?? 0) + 1);
  if (byAgent.size > 0) lines.push(`  requests by agent: ${[...byAgent].map(([agent, count]) => `${agent} ${count}`).join(', ')}`);
  for (const call of toolCallsForEpisode(store, episode.id)) {
    lines.push(
      `  round ${call.round}.${call.callIndex}${call.agent ? ` [${call.agent}]` : ''} ${call.canonicalName}${call.isError ? ` ERROR${call.errorCode ? ` ${call.errorCode}` : ''}` : ''} (${call.durationMs} ms)`,
    );
  }
  return lines;
}

function imagesCommand(runId: string, flags: StoreFlags): void {
  withStore(flags.store, (store) => {
    if (!getRun(store, runId)) throw new StoreError(`no run "${runId}" in ${store.file}; m3 runs list shows the stored run ids`);
    const audit = imageAuditOf(store, runId);
    if (flags.json) process.stdout.write(`${JSON.stringify(audit, null, 2)}\n`);
    else printImageAudit(audit);
  });
}

function showCommand(runId: string, flags: StoreFlags & { task?: string }): void {
  withStore(flags.store, (store) => {
    const run = getRun(store, runId);
    if (!run) throw new StoreError(`no run "${runId}" in ${store.file}; m3 runs list shows the stored run ids`);
    const summary = runSummary(store, runId);
    const episodes = episodesForRun(store, runId, flags.task ? { taskId: flags.task } : {});
    if (flags.json) {
      process.stdout.write(`${JSON.stringify({ run, summary, lease: getRunLease(store, runId) ?? null, episodes }, null, 2)}\n`);
      return;
    }
    const s = summary.byStatus;
    process.stdout.write(`${run.runId}: ${run.modelSpec}, ${run.status}, started ${run.startedAt}${run.finishedAt ? `, ended ${run.finishedAt}` : ''}\n`);
    process.stdout.write(
      `  ${summary.tasks} task(s), ${summary.episodes} attempt(s): ${s.ok} ok, ${s.model_failure} model failure, ${s.infra_failure} infra failure, ${s.timeout} timeout, ${s.running} running\n`,
    );
    process.stdout.write(
      `  tokens in/out ${summary.usage.inputTokens}/${summary.usage.outputTokens}, ${summary.modelCalls} model request(s), ${summary.retriedModelCalls} retried\n`,
    );
    process.stdout.write(`  ${imageAuditLine(imageAuditOf(store, runId))}\n`);
    const ends = new Map<string, number>();
    for (const episode of episodes) if (episode.endStatus) ends.set(episode.endStatus, (ends.get(episode.endStatus) ?? 0) + 1);
    if (ends.size > 0) process.stdout.write(`  ended: ${[...ends].map(([status, count]) => `${status} ${count}`).join(', ')}\n`);
    // An ok episode whose last reply was not an answer (a refusal, a cut-off answer) is shown too.
    const shown = flags.task ? episodes : episodes.filter((episode) => episode.status !== 'ok' || (episode.endStatus && episode.endStatus !== 'answered'));
    if (!flags.task && shown.length > 0) process.stdout.write('attempts that did not end ok or did not end with an answer:\n');
    for (const episode of shown) process.stdout.write(`${describeEpisode(store, episode).join('\n')}\n`);
  });
}

export function registerRunsCommands(program: Command): void {
  const runs = program.command('runs').description('the run history in the store: runs, attempts, model requests and tool calls');
  runs
    .command('list')
    .description('stored runs, newest first, with attempt counts by status and the process writing each')
    .option('--store <file>', 'run store', 'results/m3bench.sqlite')
    .option('--model <label>', 'only runs of this model label (e.g. replay-gt)')
    .option('--limit <n>', 'at most this many runs', positiveInteger, 20)
    .option('--json', 'print JSON')
    .action(listCommand);
  runs
    .command('show')
    .description("one run's totals and its failed attempts; with --task, every attempt of that task and its calls")
    .argument('<run-id>', 'the full run id (as m3 runs list prints it)')
    .option('--store <file>', 'run store', 'results/m3bench.sqlite')
    .option('--task <id>', 'show every attempt of this task with its model requests and tool calls')
    .option('--json', 'print JSON')
    .action(showCommand);
  runs
    .command('images')
    .description(
      'the image-delivery audit of a run: per model request the images it carried (task and tool images, pixels, bytes), ' +
        'each tool image with the request that first carried it, and every image replaced or dropped with the reason ' +
        '(condition images-off / images-dropped, a text-only model; a tool image dropped before the request: ' +
        'over_per_call_limit, outside_allowed_roots, file_not_found, prepare_failed, embedded_resource_not_shown)',
    )
    .argument('<run-id>', 'the full run id (as m3 runs list prints it)')
    .option('--store <file>', 'run store', 'results/m3bench.sqlite')
    .option('--json', 'print JSON (every request with its image entries)')
    .action(imagesCommand);
  registerRunsExportCommand(runs);
}
