// Debian's Chromium driven by playwright-core for the demo's end-to-end tests. Without
// /usr/bin/chromium the tests skip with a message, except in CI, where they must run.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { repoRoot } from '../support/shared-assets.js';

export const chromiumPath = '/usr/bin/chromium';
export const hasChromium = existsSync(chromiumPath);
export const missingChromiumMessage = `${chromiumPath} not found: install it with \`apt-get install -y chromium\` to run the demo's browser tests`;
export const artifactsDir = path.join(repoRoot, 'test-artifacts');

export function assertChromiumInCi(): void {
  if (process.env.CI && !hasChromium) throw new Error(missingChromiumMessage);
}

const chromiumFlags = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface TestBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** A headless Chromium with a fresh profile (playwright passes it as --user-data-dir). */
export async function launchBrowser(viewport = { width: 1280, height: 900 }): Promise<TestBrowser> {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'm3-demo-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: chromiumPath, headless: true, args: chromiumFlags, viewport });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export function artifactPath(name: string): string {
  mkdirSync(artifactsDir, { recursive: true });
  return path.join(artifactsDir, name);
}
