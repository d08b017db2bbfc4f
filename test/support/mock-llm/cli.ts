// Runs the mock LLM server from a script file, for shell-script and end-to-end tests:
//   node --import tsx test/support/mock-llm/cli.ts --script turns.json [--port 0] [--record requests.jsonl]
// Prints `MOCK_LLM_URL=http://127.0.0.1:<port>` on stdout once listening (nothing else goes to
// stdout), appends one JSON line per finished request to --record, and stops on SIGINT/SIGTERM.
import { appendFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadMockScript } from './script.js';
import { startMockLlm } from './server.js';

const usage = 'usage: cli.ts --script <file.json> [--port <n>] [--record <requests.jsonl>]';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { script: { type: 'string' }, port: { type: 'string' }, record: { type: 'string' } },
    strict: true,
  });
  if (!values.script) throw new Error(`--script is required\n${usage}`);
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number, got ${values.port}`);
  const script = loadMockScript(values.script);
  const recordFile = values.record;
  if (recordFile) writeFileSync(recordFile, '');
  const mock = await startMockLlm({
    turns: script.turns,
    ...(script.fallback ? { fallback: script.fallback } : {}),
    ...(script.models ? { models: script.models } : {}),
    port,
    ...(recordFile ? { onRequest: (request) => appendFileSync(recordFile, `${JSON.stringify(request)}\n`) } : {}),
  });
  process.stdout.write(`MOCK_LLM_URL=${mock.url}\n`);
  const stop = () => {
    mock.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`mock LLM: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
});
