// Our own servers are configured to run from source (`node --import tsx servers/<x>/index.ts`),
// which works on a fresh clone without a build. When `npm run build` has compiled them
// (dist/servers/<x>/index.js) after the last change to any TypeScript source they load, the
// compiled file is started instead: tsx transpiles every module on each start, which costs a
// few seconds of CPU per server, and a run starts ~28 of them. A source edit after the build
// makes the build stale and the source runs again, so what runs is never older than the code.
// The manifest records per server which of the two ran (`runsFrom`).
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export type ServerRuntime = 'source' | 'dist';

/** Folders whose .ts files a server may load (servers import src/core, src/assets and src/config). */
const sourceFolders = ['servers', 'src'];

/** Newest modification time (ms) of any .ts file under the folders; 0 when there is none. */
function newestSourceMs(root: string): number {
  let newest = 0;
  const walk = (dir: string) => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(full);
      } else if (entry.name.endsWith('.ts')) {
        newest = Math.max(newest, statSync(full).mtimeMs);
      }
    }
  };
  for (const folder of sourceFolders) walk(path.join(root, folder));
  return newest;
}

/** The source entry a `node --import tsx <root>/servers/...ts` command runs, or undefined. */
function tsxEntry(command: string | undefined, args: readonly string[], root: string): string | undefined {
  if (command !== 'node' || args.length !== 3 || args[0] !== '--import' || args[1] !== 'tsx') return undefined;
  const entry = args[2] ?? '';
  const relative = path.relative(root, entry);
  return relative.startsWith(`servers${path.sep}`) && relative.endsWith('.ts') ? relative : undefined;
}

/** Chooses, once per load, between each server's source entry and its fresh compiled twin. */
export class BuiltServerResolver {
  private newest: number | undefined;

  constructor(private readonly root: string) {}

  /**
   * For a server of ours: where it runs from, and the compiled entry's arguments when that
   * exists and is newer than every source. Nothing for any other command.
   */
  resolve(command: string | undefined, args: readonly string[]): { runsFrom?: ServerRuntime; launchArgs?: string[] } {
    const entry = tsxEntry(command, args, this.root);
    if (!entry) return {};
    const built = path.join(this.root, 'dist', entry.replace(/\.ts$/, '.js'));
    if (!existsSync(built)) return { runsFrom: 'source' };
    this.newest ??= newestSourceMs(this.root);
    if (statSync(built).mtimeMs < this.newest) return { runsFrom: 'source' };
    return { runsFrom: 'dist', launchArgs: [built] };
  }
}
