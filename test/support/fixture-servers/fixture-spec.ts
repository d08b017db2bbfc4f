// Builds ServerSpecs for the fixture MCP servers in this folder, for any test suite that needs
// a real stdio server (the host tests, the agent-loop tests, CLI tests).
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ServerSpec } from '../../../src/config/servers.js';
import { fixtureEntryArgs } from '../built-entry.js';

const fixtureDir = path.dirname(fileURLToPath(import.meta.url));
export const fixtureRepoRoot = path.resolve(fixtureDir, '../../..');

/** tsx's loader by absolute URL, so fixtures start from any working directory. */
export const tsxLoaderUrl = pathToFileURL(path.join(fixtureRepoRoot, 'node_modules/tsx/dist/loader.mjs')).href;

export const fixtureNames = ['echo', 'slow', 'crashing', 'image', 'noisy', 'paged', 'meta', 'tasks', 'flaky-web'] as const;
export type FixtureName = (typeof fixtureNames)[number];

export function fixtureFile(name: FixtureName): string {
  return path.join(fixtureDir, `${name}.ts`);
}

/**
 * A stdio spec running the fixture from the repo root: its transpiled twin in dist/ when fresh
 * (test/support/built-entry.ts), else `node --import <tsx loader> <fixture>.ts`.
 * `extra` overrides any field, e.g. `{ name: 'echo2', env: { FOO: 'bar' } }`.
 */
export function fixtureSpec(name: FixtureName, extra: Partial<ServerSpec> = {}): ServerSpec {
  return {
    name,
    transport: 'stdio',
    command: process.execPath,
    args: fixtureEntryArgs(fixtureFile(name), tsxLoaderUrl),
    env: {},
    headers: {},
    cwd: fixtureRepoRoot,
    ...extra,
  };
}
