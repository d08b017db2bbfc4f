// A child process for the run-store concurrency and crash tests. It opens the store named on
// the command line and writes whole episodes (episode + model call + two tool calls, one
// transaction each), printing `committed <i>` only after each transaction has committed.
//
//   node --import tsx test/support/fixture-servers/store-writer.ts <db> <runId> <writer> <count> [--wait-go] [--pause-ms=N]
//
// It lives beside the fixture servers so the suite's global setup transpiles it into dist/ with
// them and the tests start it compiled (built-entry.ts's nodeEntryArgs), not through tsx.
//
// count 0 writes until killed. With --wait-go it prints `ready` and waits for a `go` line on
// stdin, so the parent can release several writers at the same instant. --pause-ms spaces the
// episodes like a real runner does (between model calls), so no writer holds the lock back to
// back and starves the others past their busy timeout.
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { finishEpisode, inTransaction, openStore, recordModelCall, recordToolCalls, startEpisode, type Store } from '../../../src/store/index.js';

interface WriterArgs {
  file: string;
  runId: string;
  writer: string;
  count: number;
  waitGo: boolean;
  pauseMs: number;
}

function parseArgs(argv: string[]): WriterArgs {
  const positional = argv.filter((arg) => !arg.startsWith('--'));
  const [file, runId, writer, count] = positional;
  if (!file || !runId || !writer || count === undefined || !/^\d+$/.test(count)) {
    throw new Error('usage: store-writer.ts <db> <runId> <writer> <count> [--wait-go] [--pause-ms=N]');
  }
  const pause = argv.find((arg) => arg.startsWith('--pause-ms='))?.slice('--pause-ms='.length) ?? '0';
  if (!/^\d+$/.test(pause)) throw new Error(`--pause-ms: expected a whole number of milliseconds, got "${pause}"`);
  return { file, runId, writer, count: Number(count), waitGo: argv.includes('--wait-go'), pauseMs: Number(pause) };
}

/** Payload big enough that a SIGKILL is likely to land inside a transaction. */
const filler = 'x'.repeat(4096);

function writeEpisode(store: Store, args: WriterArgs, index: number): void {
  inTransaction(store, () => {
    const episodeId = startEpisode(store, { runId: args.runId, taskId: `${args.writer}-${index}`, model: `model-${args.writer}` });
    recordModelCall(store, {
      episodeId,
      round: 1,
      purpose: 'work',
      request: { writer: args.writer, index, filler },
      response: { text: `answer ${index}` },
      usage: { inputTokens: 10, outputTokens: 5, cachedTokens: 0 },
      latencyMs: 1,
      attempts: [{ attempt: 1, startedAt: Date.now(), latencyMs: 1, ok: true }],
    });
    recordToolCalls(
      store,
      [0, 1].map((callIndex) => ({ episodeId, round: 1, callIndex, canonicalName: 'echo/echo', arguments: { index, callIndex }, resultText: filler })),
    );
    finishEpisode(store, episodeId, { status: 'ok', rounds: 1, toolCallCount: 2, usage: { inputTokens: 10, outputTokens: 5, cachedTokens: 0 } });
  });
}

async function waitForGo(): Promise<void> {
  process.stdout.write('ready\n');
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (line.trim() === 'go') break;
  }
  lines.close();
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const store = openStore(args.file);
  if (args.waitGo) await waitForGo();
  for (let index = 0; args.count === 0 || index < args.count; index += 1) {
    writeEpisode(store, args, index);
    // Pipes are synchronous on Linux, so the parent never sees a line for an uncommitted row.
    process.stdout.write(`committed ${index}\n`);
    if (args.pauseMs > 0) await sleep(args.pauseMs);
  }
  store.close();
  process.stdout.write('done\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`store-writer: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
