// `node --import ./test/support/record-loads.mjs <entry>`: appends the URL of every ES module the
// process loads to the file named by LOADED_MODULES_FILE, one a line (test/cli/lazy-load.test.ts:
// which command modules `m3 <command>` loads). Plain JavaScript, since a child started from dist/
// runs without tsx. The same file is the hooks module: Node loads it again in its hooks thread.
import { appendFileSync } from 'node:fs';
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

const file = process.env.LOADED_MODULES_FILE;
if (isMainThread && file) register(import.meta.url);

export async function load(url, context, nextLoad) {
  if (file && url.startsWith('file:')) appendFileSync(file, `${url}\n`);
  return nextLoad(url, context);
}
