// Which test files may run one after another in a worker process that stays alive (Vitest's
// `isolate: false`), and which need a fresh process each (the default). Sharing skips a process
// start and the reload of the modules a file imports: about 0.5 CPU-s a file on the 2-core
// machine, where the suite is CPU-bound (vitest.config.ts). A shared process keeps what a file
// leaves behind: module state, process.env, listeners on `process`, mocks, fake timers. A file
// that changes any of those, directly or through a helper of test/, gets its own process; so does
// a file that carries the marker in a comment, for state no pattern shows (say, a module that
// reads a variable once when it loads). The choice is made from the files'
// text each time the config loads, so a new file is placed without a list to keep.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** A comment in a test file that asks for a process of its own; the reason follows it. */
const ownProcessMarker = '@own-process';
/**
 * A comment in a helper of test/ whose changes to process state are undone before it returns
 * (or when what it opened is closed), so its text does not count against a file importing it.
 */
const restoresMarker = '@restores-process-state';

// What a file does that may outlive it in a shared process. A test file that imports a helper
// doing so, directly or through another, gets its own process too, unless the helper carries the
// restores marker (test/support/in-process-servers.ts puts a connection's env in process.env
// only while the connection is open; test/support/m3-in-process.ts sets the CLI's variables and
// process.exitCode for a call and puts them back after it).
const stateChanges: ReadonlyArray<readonly [RegExp, string]> = [
  [/process\.env(\.\w+|\[[^\]]+\])\s*=[^=]|delete process\.env|Object\.assign\(process\.env/, 'writes process.env'],
  [/vi\.(mock|doMock|stubEnv|stubGlobal|useFakeTimers|spyOn|hoisted)\b/, 'mocks, stubs or fakes timers'],
  [/process\.(chdir|on|once|exitCode|setMaxListeners|umask)\b/, 'changes process-wide state'],
  [/pdfjs-dist/, 'loads pdfjs-dist, which adds globals and core-js polyfills'],
];

const relativeImports = /(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g;

/**
 * Why the test file (or helper) at `file` needs a process of its own, or undefined when it may
 * share one: its marker, a state change in its text, or one in a module of test/ it imports.
 */
export function ownProcessReason(file: string, seen = new Map<string, string | undefined>()): string | undefined {
  if (seen.has(file)) return seen.get(file);
  seen.set(file, undefined); // an import circle adds nothing
  const text = readFileSync(file, 'utf8');
  const marked = text.indexOf(ownProcessMarker);
  const restores = text.includes(restoresMarker);
  let reason =
    marked >= 0 ? markedReason(text.slice(marked + ownProcessMarker.length)) : restores ? undefined : stateChanges.find(([pattern]) => pattern.test(text))?.[1];
  for (const [, specifier] of reason ? [] : text.matchAll(relativeImports)) {
    const target = path.resolve(path.dirname(file), specifier!.replace(/\.js$/, '.ts'));
    if (!target.startsWith(testRoot(file)) || !existsSync(target)) continue;
    const inner = ownProcessReason(target, seen);
    if (inner) {
      reason = `${inner} (${path.basename(target)})`;
      break;
    }
  }
  seen.set(file, reason);
  return reason;
}

/** The reason written after the marker, to the end of its line. */
function markedReason(after: string): string {
  return after.split('\n')[0]?.replace(/^[:\s]+/, '') || 'marked';
}

/** The test/ folder a file is in. */
function testRoot(file: string): string {
  const parts = file.split(path.sep);
  return parts.slice(0, parts.lastIndexOf('test') + 1).join(path.sep);
}

/** The test files under `root`/test (relative, with /) that may share a worker process. */
export function filesSharingAProcess(root: string): string[] {
  const testDir = path.join(root, 'test');
  const seen = new Map<string, string | undefined>();
  return (readdirSync(testDir, { recursive: true }) as string[])
    .filter((file) => file.endsWith('.test.ts') && !file.endsWith('.live.test.ts'))
    .filter((file) => ownProcessReason(path.join(testDir, file), seen) === undefined)
    .map((file) => `test/${file.split(path.sep).join('/')}`)
    .sort();
}
