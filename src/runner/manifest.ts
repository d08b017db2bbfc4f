// The run manifest: enough to say exactly what a run was (config, tool surface, switches,
// versions, seed, inputs), written beside the prediction file and into the store.
import type { ServerRuntime } from '../config/built-servers.js';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Switches } from '../config/switches.js';

const require = createRequire(import.meta.url);

export function sha256OfFile(file: string | undefined): string | null {
  if (!file || !existsSync(file)) return null;
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

export function gitCommit(root: string): string | null {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return null;
  }
}

const trackedPackages = ['@modelcontextprotocol/sdk', 'openai', '@anthropic-ai/sdk', '@google/genai', 'sharp', 'onnxruntime-node', 'better-sqlite3', 'zod'];

/**
 * The package.json of an installed package: looked up in the node_modules folders from `root`
 * upwards first, because packages with an export map (the MCP SDK, openai, the Anthropic and
 * Google SDKs) refuse `require.resolve('<name>/package.json')`; then through require.
 */
function installedPackageJson(name: string, root: string): string | undefined {
  for (let dir = path.resolve(root); ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'node_modules', ...name.split('/'), 'package.json');
    if (existsSync(file)) return file;
    if (path.dirname(dir) === dir) break;
  }
  try {
    return require.resolve(`${name}/package.json`, { paths: [root] });
  } catch {
    return undefined;
  }
}

export function packageVersions(root: string): Record<string, string> {
  const versions: Record<string, string> = { node: process.version };
  const own = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
  versions.m3bench = own.version;
  for (const name of trackedPackages) {
    const file = installedPackageJson(name, root);
    if (!file) continue;
    const version = (JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown }).version;
    if (typeof version === 'string') versions[name] = version;
  }
  return versions;
}

export function configHash(parts: Record<string, unknown>): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

export interface RunManifest {
  runId: string;
  model: string;
  modelLabel: string;
  startedAt: string;
  finishedAt?: string;
  configHash: string;
  serversFile: string;
  serversFileSha256: string | null;
  toolsHash: string;
  /** The named tool surface (src/mcp/tool-surface.ts) and its hash (= toolsHash); absent in runs before it was recorded: m3bench. */
  toolSurface?: { name: string; hash: string; catalogFile?: string };
  /** Per server; `runsFrom` for our own servers: compiled dist/ or source through tsx (src/config/built-servers.ts). */
  tools: Array<{ server: string; toolCount: number; toolsHash?: string; state: string; runsFrom?: ServerRuntime }>;
  switches: Switches;
  options: Record<string, unknown>;
  versions: Record<string, string>;
  gitCommit: string | null;
  seed: number | null;
  tasksFile: string;
  tasksFileSha256: string | null;
  /** The run's other task files (`m3 run --tasks a b`, a benchmark file's task list). */
  extraTaskFiles?: Array<{ file: string; sha256: string | null }>;
  gtFile: string | null;
  gtFileSha256: string | null;
  shard: string | null;
  /** The price entry this run's costs were computed with (src/llm/pricing.ts priceRecord); null: no price known. */
  price?: string | null;
  /** What the tool fallback layer did in this run (src/fallback/settings.ts). */
  fallback?: Record<string, unknown>;
  /** Set with --placeholder-images (src/media/missing-image-stand-in.ts). */
  placeholderImages?: { enabled: true; note: string; dir: string; taskCount: number; tasks: Record<string, string[]> };
  counts?: Record<string, number>;
  failures?: Array<{ taskId: string; status: string; code: string; message: string; attempts: number }>;
  /** Why the run stopped before its queue was empty (Ctrl-C, or another process took it over). */
  stopped?: string;
  /** The `m3 run` invocation (batch) this run belongs to; its batch manifest lists every cell. */
  batchId?: string;
  /** The named condition of the run (src/runner/conditions.ts) and what it changed. */
  condition?: { name: string; parts: Array<{ name: string; description: string }> };
  /** This file's trial (1-based) and the trials per task of the run. */
  trial?: number;
  trials?: number;
  /** Every sampling and loop parameter the model's requests were made with (null: provider default). */
  sampling?: SamplingRecord;
  /** Model ids the provider said it served (the response's `model` / `modelVersion`), sorted. */
  resolvedModels?: string[];
  /** Per task, its prompt hash (src/runner/prompt-hash.ts), and one hash over all of them. */
  promptHashes?: Record<string, string>;
  taskSetHash?: string;
  /** Servers whose tool list differs from the one recorded when the run started (resume/merge). */
  toolSurfaceDrift?: Array<{ server: string; recorded: string | null; current: string | null }>;
  /** A benchmark file's workflow (src/agent/workflow.ts): its name, type and the sha256 of its definition, which is `options.workflow`. */
  workflow?: { name: string; type: string; sha256: string };
  /** The run's trials: the files of each and its counts (in the store's copy of the manifest). */
  /** `m3 run --cache`: the policy, the file and how many responses the cache served, missed and recorded. */
  responseCache?: { policy: string; file: string; maxAgeSeconds: number | null; served: number; missed: number; recorded: number };
  trialFiles?: Array<{ trial: number; seed: number | null; predictions: string; manifest: string; counts?: Record<string, number> }>;
}

export interface SamplingRecord {
  temperature: number | null;
  /** The seed this trial sent; null when none was sent (the provider samples as it likes). */
  seed: number | null;
  maxNewTokens: number;
  maxSteps: number;
  maxConcurrentCalls: number;
  topTools: number;
  /** What the harness does not set, so the provider's defaults apply. */
  providerDefaults: string[];
}
