// Run as a child (under `unshare -rn`, a network namespace with no route out): one request of
// the shared HTTP client to a real upstream host name, with 3 retries and a recording sleep.
// Prints {code, final, sleeps, message} as JSON on stdout, so a test can see whether a DNS
// failure was retried.
import { createHttpClient } from '../../servers/shared/http-client.js';
import { UpstreamError } from '../../servers/shared/upstream-error.js';

const sleeps: number[] = [];
const client = createHttpClient({ server: 'offline-probe', retries: 3, backoffBaseMs: 3000, env: {}, sleep: async (ms) => void sleeps.push(ms) });
try {
  await client.getText(process.argv[2] ?? 'http://export.arxiv.org/api/query?search_query=all:test');
  process.stdout.write(JSON.stringify({ code: 'ok', sleeps }));
} catch (error) {
  const typed = error instanceof UpstreamError ? error : undefined;
  process.stdout.write(JSON.stringify({ code: typed?.code ?? 'untyped', final: typed?.final, sleeps, message: String((error as Error).message) }));
}
