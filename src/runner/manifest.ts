// What the run manifest records about the machine and inputs (hashes, versions, commit); the
// manifest's schema is src/results/run-manifest.ts.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

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
