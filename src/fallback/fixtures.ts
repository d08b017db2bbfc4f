// Curated fixtures: tools/mock_runtime/fixtures/<server>/<tool>.json, each a JSON array of
// {"arguments": {...} | "*", "result": <string, or any JSON served as JSON.stringify(value)>,
// "source": "<where the result comes from>"}. "*" is the tool's default for unknown arguments.
// A tool that saves a file or returns an image (download_arxiv, static_map) also names an
// "asset": a generated file under <server>/assets/ that serving writes into the task's
// workspace (src/fallback/fixture-asset.ts), with `{{saved_path}}` in the result text standing
// for where it went; `"image": true` also returns it as image content, as the server does.
// Files are validated with zod; every problem names the file and the entry index, and bad
// entries are left out (the good ones of the same file are still used).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { argumentsKey } from './argument-key.js';

/** Relative, no `..`, no absolute path: a file name under a folder the layer controls. */
const innerPath = z
  .string()
  .min(1)
  .refine((value) => !path.isAbsolute(value) && !value.split(/[\\/]/).includes('..'), { message: 'expected a relative path without ".."' });

const fixtureAssetSchema = z.strictObject({
  /** The generated file, relative to the server's fixture folder (assets/...). */
  file: innerPath,
  /** Where it is written, relative to the task's workspace (the folder the real tool writes to). */
  saveAs: innerPath,
  /** Also returned as image content after the text. */
  image: z.boolean().default(false),
});
export type FixtureAsset = z.output<typeof fixtureAssetSchema>;

const fixtureEntrySchema = z.strictObject({
  arguments: z.union([z.literal('*'), z.record(z.string(), z.unknown())]),
  result: z.unknown().refine((value) => value !== undefined && value !== null && value !== '', { message: 'expected a non-empty string or a JSON value' }),
  source: z.string().trim().min(1, 'say where the result comes from'),
  asset: fixtureAssetSchema.optional(),
});
type FixtureEntry = z.output<typeof fixtureEntrySchema>;

/** A server's folder of generated files that fixtures name; not a fixture file. */
const assetFolderName = 'assets';

export interface FixtureResult {
  /** The text served: the string itself, or JSON.stringify of any other value. */
  text: string;
  /** The value as written (for the inline mark). */
  value: unknown;
  source: string;
  /** Position of the entry in its file's array. */
  index: number;
  /** The generated file this result writes, resolved to its absolute path under the fixtures. */
  asset?: FixtureAsset & { source: string };
}

interface ToolFixtures {
  server: string;
  tool: string;
  file: string;
  exact: Map<string, FixtureResult & { arguments: Record<string, unknown> }>;
  fallback?: FixtureResult;
}

export interface FixtureProblem {
  file: string;
  /** Entry index in the array; absent for problems of the whole file. */
  index?: number;
  message: string;
}

export interface FixtureSet {
  dir: string;
  /** By canonical `server/tool`. */
  tools: Map<string, ToolFixtures>;
  problems: FixtureProblem[];
  /** Valid entries loaded, over all files. */
  entries: number;
}

function toResult(entry: FixtureEntry, index: number, serverDir: string): FixtureResult {
  return {
    text: typeof entry.result === 'string' ? entry.result : JSON.stringify(entry.result),
    value: entry.result,
    source: entry.source,
    index,
    ...(entry.asset ? { asset: { ...entry.asset, source: path.join(serverDir, entry.asset.file) } } : {}),
  };
}

function readJson(file: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(readFileSync(file, 'utf8')) as unknown };
  } catch (error) {
    return { error: `not valid JSON: ${(error as Error).message}` };
  }
}

/** Reads one fixture file into `set` (entries and problems). */
function loadFile(set: FixtureSet, server: string, file: string): void {
  const tool = path.basename(file, '.json');
  const read = readJson(file);
  if ('error' in read) {
    set.problems.push({ file, message: read.error });
    return;
  }
  if (!Array.isArray(read.value) || read.value.length === 0) {
    set.problems.push({ file, message: 'expected a non-empty JSON array of {arguments, result, source}' });
    return;
  }
  const fixtures: ToolFixtures = { server, tool, file, exact: new Map() };
  read.value.forEach((raw: unknown, index) => {
    const parsed = fixtureEntrySchema.safeParse(raw);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
        set.problems.push({ file, index, message: `${where}${issue.message}` });
      }
      return;
    }
    const entry = parsed.data;
    if (entry.asset && !existsSync(path.join(path.dirname(file), entry.asset.file))) {
      set.problems.push({ file, index, message: `asset.file: ${entry.asset.file} is not in ${path.dirname(file)}` });
      return;
    }
    const serverDir = path.dirname(file);
    if (entry.arguments === '*') {
      if (fixtures.fallback) set.problems.push({ file, index, message: 'a second "*" default entry (only the first is used)' });
      else fixtures.fallback = toResult(entry, index, serverDir);
    } else {
      const key = argumentsKey(entry.arguments);
      if (fixtures.exact.has(key)) set.problems.push({ file, index, message: `the same arguments as an earlier entry (${key}); only the first is used` });
      else fixtures.exact.set(key, { ...toResult(entry, index, serverDir), arguments: entry.arguments });
    }
    set.entries += 1;
  });
  if (fixtures.exact.size > 0 || fixtures.fallback) set.tools.set(`${server}/${tool}`, fixtures);
}

/** Loads every fixture under `dir` (a missing folder is an empty set). */
export function loadFixtures(dir: string): FixtureSet {
  const set: FixtureSet = { dir, tools: new Map(), problems: [], entries: 0 };
  if (!existsSync(dir)) return set;
  for (const server of readdirSync(dir).sort()) {
    const serverDir = path.join(dir, server);
    if (!statSync(serverDir).isDirectory()) {
      set.problems.push({ file: serverDir, message: 'expected a folder per server (fixtures/<server>/<tool>.json)' });
      continue;
    }
    for (const name of readdirSync(serverDir).sort()) {
      const file = path.join(serverDir, name);
      if (name === assetFolderName && statSync(file).isDirectory()) continue;
      if (!name.endsWith('.json')) set.problems.push({ file, message: 'not a .json fixture file' });
      else loadFile(set, server, file);
    }
  }
  return set;
}

/** The fixture for these exact arguments, if one is listed. */
export function exactFixture(set: FixtureSet, canonicalName: string, args: unknown): FixtureResult | undefined {
  return set.tools.get(canonicalName)?.exact.get(argumentsKey(args));
}

/** The tool's "*" default, if it has one. */
export function defaultFixture(set: FixtureSet, canonicalName: string): FixtureResult | undefined {
  return set.tools.get(canonicalName)?.fallback;
}

export function formatFixtureProblem(problem: FixtureProblem): string {
  return `${problem.file}${problem.index !== undefined ? ` [${problem.index}]` : ''}: ${problem.message}`;
}
