// What `m3 config check` says about the tool fallback layer: exactly what a run with the
// current switches would install (off; record only; or the tiers in order with what each
// has: fixture files, cache entries, the simulator model), read from the same settings.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { readCacheStats } from './cache-transfer.js';
import { defaultAllowList, neverMockedServers } from './allow-list.js';
import { loadFixtures } from './fixtures.js';
import { fallbackActive, type FallbackSettings } from './settings.js';

export interface FallbackDescription {
  state: 'off' | 'record-only' | 'on';
  lines: string[];
  facts: Record<string, unknown>;
}

function cacheEntryCount(file: string): number | string {
  if (!existsSync(file)) return 0;
  try {
    return readCacheStats(file).reduce((sum, row) => sum + row.entries, 0);
  } catch (error) {
    return `unreadable (${(error as Error).message})`;
  }
}

export function describeFallback(settings: FallbackSettings, root: string): FallbackDescription {
  const shown = (file: string) => path.relative(root, file) || '.';
  if (!fallbackActive(settings)) {
    return {
      state: 'off',
      lines: [
        'off (M3_MOCK_FALLBACK=0): a tool call that fails for an infrastructure reason ends its episode as an infrastructure failure; nothing is mocked or recorded',
      ],
      facts: { state: 'off' },
    };
  }
  const fixtures = loadFixtures(settings.fixturesDir);
  const entries = cacheEntryCount(settings.cacheFile);
  const simulator = settings.simulator.enabled ? `LLM simulator (${settings.simulator.model}, created on first use)` : 'LLM simulator off (M3_MOCK_LLM=0)';
  const allowList = [...defaultAllowList, ...settings.extraAllowed];
  const lines: string[] = [];
  if (settings.enabled) {
    lines.push('on (M3_MOCK_FALLBACK=1): a mockable tool that fails for an infrastructure reason is served by the first tier with an answer:');
    lines.push(
      `  real result → fixture (${fixtures.tools.size} tool(s), ${fixtures.entries} entries in ${shown(settings.fixturesDir)}) → cache (${entries} entries in ${shown(settings.cacheFile)}) → fixture "*" default → ${simulator} → generic template`,
    );
  } else {
    lines.push('record only (M3_MOCK_FALLBACK=0, M3_MOCK_RECORD=1): failures are not mocked; successful returns of mockable tools are recorded');
  }
  if (fixtures.problems.length > 0) lines.push(`  ${fixtures.problems.length} fixture problem(s): run m3 fixtures verify`);
  lines.push(`  mockable: tools with a fixture, and the allow-list: ${allowList.join(', ')}`);
  lines.push(`  never mocked: servers ${neverMockedServers.join(', ')}; tools whose name or parameters name images or files only from their committed fixture`);
  lines.push(`  recording: ${settings.record ? `on → ${shown(settings.cacheFile)}` : 'off (M3_MOCK_RECORD=0)'}`);
  if (settings.enabled) {
    lines.push(`  inline mark: ${settings.markInline ? 'on ({"mocked":true,"tier":...,"result":...})' : 'off (M3_MOCK_MARK_INLINE=0)'}`);
    lines.push(`  audit log: ${shown(settings.auditLogFile)}`);
  }
  return {
    state: settings.enabled ? 'on' : 'record-only',
    lines,
    facts: {
      state: settings.enabled ? 'on' : 'record-only',
      record: settings.record,
      simulator: settings.enabled && settings.simulator.enabled ? settings.simulator.model : null,
      markInline: settings.markInline,
      fixtures: { dir: settings.fixturesDir, tools: fixtures.tools.size, entries: fixtures.entries, problems: fixtures.problems.length },
      cache: { file: settings.cacheFile, entries },
      allowList,
      neverMockedServers,
      auditLog: settings.auditLogFile,
    },
  };
}
