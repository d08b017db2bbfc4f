// The run manifest: enough to say exactly what a run was (config, tool surface, switches,
// versions, seed, inputs), written beside the prediction file and into the store.
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
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  } catch {
    return null;
  }
}

const trackedPackages = ['@modelcontextprotocol/sdk', 'openai', '@anthropic-ai/sdk', '@google/genai', 'sharp', 'onnxruntime-node', 'better-sqlite3', 'zod'];

export function packageVersions(root: string): Record<string, string> {
  const versions: Record<string, string> = { node: process.version };
  const own = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
  versions.m3bench = own.version;
  for (const name of trackedPackages) {
    try {
      const file = require.resolve(`${name}/package.json`, { paths: [root] });
      const version = (JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown }).version;
      if (typeof version === 'string') versions[name] = version;
    } catch {
      // Packages with export maps that hide package.json are simply not listed.
    }
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
  tools: Array<{ server: string; toolCount: number; toolsHash?: string; state: string }>;
  switches: Switches;
  options: Record<string, unknown>;
  versions: Record<string, string>;
  gitCommit: string | null;
  seed: number | null;
  tasksFile: string;
  tasksFileSha256: string | null;
  gtFile: string | null;
  gtFileSha256: string | null;
  shard: string | null;
  /** The run condition of a sweep cell (src/runner/conditions.ts); absent for a plain run. */
  condition?: string;
  counts?: Record<string, number>;
  failures?: Array<{ taskId: string; status: string; code: string; message: string; attempts: number }>;
  /** Why the run stopped before its queue was empty (Ctrl-C, or another process took it over). */
  stopped?: string;
}
