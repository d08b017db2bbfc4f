// Shared set-up for the tool fallback layer's tests: a temporary runtime folder (fixtures/,
// cache/, logs/), fixture files written into it, settings as the switches would give them, an
// upstream fake for the flaky-web fixture server, and a closed port for connection refused.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseSwitches } from '../../src/config/switches.js';
import { auditEntrySchema, type AuditEntry } from '../../src/fallback/audit-log.js';
import { createFallbackLayer, type FallbackLayer, type FallbackLayerOptions } from '../../src/fallback/index.js';
import { fallbackSettingsFrom, type FallbackSettings } from '../../src/fallback/settings.js';

export const silentLogger = { debug() {}, info() {}, warn() {}, error() {} };

/** A fresh runtime folder; `switches` are M3_* values (M3_MOCK_DIR is set to the folder). */
export function fallbackRuntime(switches: Record<string, string> = {}): { dir: string; settings: FallbackSettings } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-fallback-'));
  return { dir, settings: fallbackSettingsFrom(parseSwitches({ M3_MOCK_FALLBACK: '1', ...switches, M3_MOCK_DIR: dir }), dir) };
}

/** Writes fixtures/<server>/<tool>.json under the runtime folder. */
export function writeFixture(runtimeDir: string, canonicalName: string, entries: unknown): string {
  const [server = '', tool = ''] = canonicalName.split('/');
  const file = path.join(runtimeDir, 'fixtures', server, `${tool}.json`);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof entries === 'string' ? entries : JSON.stringify(entries, null, 2));
  return file;
}

/** Every audit log line, validated. */
export function readAudit(file: string): AuditEntry[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => auditEntrySchema.parse(JSON.parse(line)));
}

/** A loopback port nothing listens on (bound, then released). */
export async function closedPortUrl(): Promise<string> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** The layer for these settings (they switch it on); quiet, 10 s simulator timeout by default. */
export function layerFor(settings: FallbackSettings, host: FallbackLayerOptions['host'], env: Record<string, string> = {}): FallbackLayer {
  const layer = createFallbackLayer({ settings, host, env, timeoutMs: 10_000, logger: silentLogger });
  if (!layer) throw new Error('the fallback layer should be on for these settings');
  return layer;
}
