// Temp-dir run stores for the store tests: each test gets a fresh folder, removed afterwards.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';

const made: string[] = [];

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temp folder, removed after the current test. */
export function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'm3-store-'));
  made.push(dir);
  return dir;
}

/** A path for a store file inside a not-yet-existing sub-folder (openStore must create it). */
export function tempStoreFile(): string {
  return path.join(tempDir(), 'nested', 'results', 'runs.sqlite');
}
