// A setup file of the files that share a worker process (vitest.config.ts): after each file, the
// process.env, exit code, working directory and SIGINT/SIGTERM listeners it started with must be
// back, and the global object must have no name the worker's first file did not start with. A
// file that leaves one changed fails here, naming what it left, and the next file still starts
// from the state before it; without this, the change would fail whichever file the worker
// happened to run next (a file that loaded pdfjs-dist, whose global Path2D then broke chart.js
// in another file).
import { afterAll } from 'vitest';

// Set once per process by a library as it loads, not by a test: libvips (under sharp) sets
// VIPSHOME when it starts; zod keeps its registry on the global object so its copies share one.
const envSetByLibraries = new Set(['VIPSHOME']);
const globalsSetByLibraries = new Set(['__zod_globalConfig', '__zod_globalRegistry']);

const workerGlobals = Symbol.for('m3bench.workerGlobals');
const global = globalThis as typeof globalThis & { [workerGlobals]?: ReadonlySet<string> };
global[workerGlobals] ??= new Set(Object.getOwnPropertyNames(globalThis));
const globalsBefore = global[workerGlobals];
const envBefore = { ...process.env };
const exitCodeBefore = process.exitCode;
const cwdBefore = process.cwd();
// The signals the CLI's commands listen to while they run (src/cli/stop-signal.ts); libraries
// add listeners of other events once per process as they load (exceljs 'exit', the OCR
// runtime 'uncaughtException'), which are no leak.
const processEvents = ['SIGINT', 'SIGTERM'] as const;
const listenersBefore = processEvents.map((event) => process.listenerCount(event));

afterAll(() => {
  const names = new Set([...Object.keys(envBefore), ...Object.keys(process.env)]);
  const changed = [...names].filter((name) => !envSetByLibraries.has(name) && process.env[name] !== envBefore[name]).sort();
  for (const name of changed) {
    if (envBefore[name] === undefined) delete process.env[name];
    else process.env[name] = envBefore[name];
  }
  const left = changed.map((name) => `a changed process.env.${name}`);
  if (process.exitCode !== exitCodeBefore) left.push(`process.exitCode ${process.exitCode}`);
  process.exitCode = exitCodeBefore;
  if (process.cwd() !== cwdBefore) left.push(`the working directory ${process.cwd()}`);
  process.chdir(cwdBefore);
  processEvents.forEach((event, at) => {
    const more = process.listenerCount(event) - listenersBefore[at]!;
    if (more > 0) left.push(`${more} more '${event}' listener(s) on process`);
  });
  const added = Object.getOwnPropertyNames(globalThis).filter((name) => !globalsBefore.has(name) && !globalsSetByLibraries.has(name));
  // Removed so the next file starts without them; what a library changed on built-in prototypes
  // as it added them cannot be undone, so the file that did it must not share a process.
  for (const name of added) Reflect.deleteProperty(globalThis, name);
  if (added.length > 0) left.push(`new globals (${added.join(', ')})`);
  if (left.length > 0) {
    throw new Error(
      `this file shares its worker process with others and left behind ${left.join('; ')}: undo that, or mark the file @own-process (test/support/process-sharing.ts)`,
    );
  }
});
