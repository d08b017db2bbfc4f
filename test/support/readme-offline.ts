// The README's offline recipe as the README writes it, for the e2e test and `npm run bench:offline`
// (so neither can drift from the text a newcomer copies): the ```bash block under "### Offline"
// is parsed into its environment assignments and its command, and run in a fresh copy of the
// checkout (tracked files, the pulled assets, node_modules linked, the original GT where the
// recipe expects it), with no M3_* variable of ours in its environment and, where the machine
// allows (`unshare -rn`, a network namespace with only loopback), no network at all.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './shared-assets.js';

export interface ReadmeCommand {
  /** The text of the block, continuation lines joined. */
  text: string;
  env: Record<string, string>;
  command: string;
  args: string[];
}

/** Shell words of one line: single and double quotes, no expansion (the recipe uses none). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let current: string | undefined;
  let quote: string | undefined;
  for (const char of line) {
    if (quote) {
      if (char === quote) quote = undefined;
      else current += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      current ??= '';
    } else if (/\s/.test(char)) {
      if (current !== undefined) words.push(current);
      current = undefined;
    } else current = (current ?? '') + char;
  }
  if (quote) throw new Error(`unclosed ${quote} in: ${line}`);
  if (current !== undefined) words.push(current);
  return words;
}

/** The README's offline command (the first bash block after the "### Offline" heading). */
export function readmeOfflineCommand(readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8')): ReadmeCommand {
  const section = readme.split(/^### Offline\s*$/m)[1];
  const block = section && /```bash\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('README.md: no ```bash block under "### Offline"');
  const text = block.replace(/\\\n\s*/g, ' ').trim();
  const words = shellWords(text);
  const env: Record<string, string> = {};
  while (words[0] && /^[A-Z_][A-Z0-9_]*=/.test(words[0])) {
    const word = words.shift() as string;
    env[word.slice(0, word.indexOf('='))] = word.slice(word.indexOf('=') + 1);
  }
  const [command, ...args] = words;
  if (!command) throw new Error('README.md: the offline block has no command');
  return { text, env, command, args };
}

/** The GT file the recipe names (`--gt <file>`), relative to the checkout. */
export function recipeGtPath(recipe: ReadmeCommand): string {
  const at = recipe.args.indexOf('--gt');
  const file = at >= 0 ? recipe.args[at + 1] : undefined;
  if (!file) throw new Error('README.md: the offline command has no --gt <file>');
  return file;
}

/**
 * A fresh copy of the checkout: the tracked files as they are now, the assets `m3 assets pull`
 * put in media/assets, node_modules linked, and the original GT (from the shared data) where the
 * recipe reads it, as `m3 dataset pull` would have put it. `withBuild`: the checkout's dist/ too,
 * copied after the sources so it is as fresh there as here (a clone after `npm run build`).
 */
export function freshCopy(recipe: ReadmeCommand, gtSource: string, root = repoRoot, withBuild = false): string {
  const copy = mkdtempSync(path.join(os.tmpdir(), 'm3-readme-offline-'));
  const listed = spawnSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`git ls-files failed in ${root}: ${listed.stderr}`);
  for (const file of listed.stdout.split('\0').filter(Boolean)) {
    const from = path.join(root, file);
    if (!existsSync(from)) continue;
    mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
    cpSync(from, path.join(copy, file));
  }
  const assets = path.join(root, 'media', 'assets');
  if (existsSync(assets)) cpSync(assets, path.join(copy, 'media', 'assets'), { recursive: true });
  symlinkSync(realpathSync(path.join(root, 'node_modules')), path.join(copy, 'node_modules'));
  if (withBuild) {
    cpSync(path.join(root, 'dist'), path.join(copy, 'dist'), { recursive: true, filter: (from) => !from.endsWith('.test-build-lock') });
  }
  const gt = path.join(copy, recipeGtPath(recipe));
  mkdirSync(path.dirname(gt), { recursive: true });
  cpSync(gtSource, gt);
  return copy;
}

/** True when `unshare -rn` works here: the recipe can run with no network at all. */
export function canRunWithoutNetwork(): boolean {
  return spawnSync('unshare', ['-rn', 'true']).status === 0;
}

/** The parent's environment without any M3_* variable (no switch of ours leaks in), plus the recipe's. */
export function recipeEnv(recipe: ReadmeCommand, parent: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(parent)) if (!name.startsWith('M3_') && name !== 'NODE_OPTIONS' && name !== 'VITEST') env[name] = value;
  return { ...env, ...recipe.env };
}

/**
 * Starts the recipe in `cwd`: in a network namespace of its own when `offline` (loopback up when
 * `ip` is there), in its own process group so a caller can sample or stop the whole tree.
 * `extraEnv` goes on top of the recipe's (the loopback guard where there is no namespace).
 */
export function startRecipe(recipe: ReadmeCommand, cwd: string, offline: boolean, extraEnv: NodeJS.ProcessEnv = {}) {
  const [command, args] = offline
    ? ['unshare', ['-rn', 'sh', '-c', 'ip link set lo up 2>/dev/null; exec "$@"', 'sh', recipe.command, ...recipe.args]]
    : [recipe.command, recipe.args];
  return spawn(command as string, args as string[], { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...recipeEnv(recipe), ...extraEnv } });
}

/** The prediction file `m3 run` printed in its summary table (relative to its cwd). */
export function printedPredictionFile(stdout: string, cwd: string): string {
  const match = /\s(\S+\.json)(?:\s|$)/m.exec(stdout.split('\n').find((line) => /\.json(\s|$)/.test(line) && !line.startsWith('model ')) ?? '');
  if (!match?.[1]) throw new Error(`m3 run printed no prediction file:\n${stdout.slice(-2000)}`);
  return path.resolve(cwd, match[1]);
}
