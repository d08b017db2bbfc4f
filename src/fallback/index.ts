// The tool fallback layer (off by default): builds the interceptor the runner hands to every
// checked tool call when M3_MOCK_FALLBACK (or M3_MOCK_RECORD) is on. With both off nothing is
// created and nothing is installed, so runs are exactly what they are without this module.
import type { EnvMap } from '../config/env-file.js';
import type { Logger } from '../log/logger.js';
import type { ToolHost } from '../mcp/types.js';
import { AllowList } from './allow-list.js';
import { AuditLog } from './audit-log.js';
import { FallbackCache } from './cache.js';
import { loadFixtures, type FixtureSet } from './fixtures.js';
import { fallbackActive, type FallbackSettings } from './settings.js';
import { Simulator } from './simulator.js';
import { FallbackInterceptor } from './tiers.js';

export interface FallbackLayer {
  interceptor: FallbackInterceptor;
  settings: FallbackSettings;
  fixtures: FixtureSet;
  allowList: AllowList;
  /** Closes the cache file. */
  close(): void;
}

export interface FallbackLayerOptions {
  settings: FallbackSettings;
  /** Where the servers' tool-surface hashes come from (part of every cache key). */
  host: Pick<ToolHost, 'status'>;
  /** The merged environment, for the simulator's driver (keys and base URLs). */
  env: EnvMap;
  /** Per-request timeout of the simulator (M3_LLM_TIMEOUT). */
  timeoutMs: number;
  logger: Logger;
  /** Folders a fixture's asset may be written into (the task workspaces' roots); default media/ and M3_ALLOWED_ROOTS. */
  assetRoots?: readonly string[];
}

/** The layer for a run, or undefined when the switches leave it off. */
export function createFallbackLayer(options: FallbackLayerOptions): FallbackLayer | undefined {
  const { settings, logger } = options;
  if (!fallbackActive(settings)) return undefined;
  const fixtures = loadFixtures(settings.fixturesDir);
  if (fixtures.problems.length > 0) {
    logger.warn(
      `${fixtures.problems.length} problem(s) in the fallback fixtures under ${settings.fixturesDir}; those entries are not used (m3 fixtures verify lists them)`,
    );
  }
  const allowList = new AllowList(settings.extraAllowed, fixtures);
  const cache = FallbackCache.open(settings.cacheFile);
  const simulator =
    settings.enabled && settings.simulator.enabled
      ? new Simulator({ model: settings.simulator.model, env: options.env, timeoutMs: options.timeoutMs })
      : undefined;
  const interceptor = new FallbackInterceptor({
    serve: settings.enabled,
    record: settings.record,
    markInline: settings.markInline,
    fixtures,
    allowList,
    cache,
    ...(simulator ? { simulator } : {}),
    audit: new AuditLog(settings.auditLogFile),
    toolsHashOf: (server) => options.host.status().find((status) => status.name === server)?.toolsHash ?? '',
    logger,
    ...(options.assetRoots ? { assetRoots: options.assetRoots } : {}),
  });
  return { interceptor, settings, fixtures, allowList, close: () => cache.close() };
}

export { fallbackSettingsFrom, manifestFallback } from './settings.js';
