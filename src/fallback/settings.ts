// What the tool fallback layer does in a run, read once from the M3_MOCK_* switches, with the
// runtime paths resolved (fixtures, cache file, audit log under M3_MOCK_DIR). The same settings
// feed the layer, the run manifest and `m3 config check`, so what is reported is what runs.
import path from 'node:path';
import type { Switches } from '../config/switches.js';
import { ConfigError } from '../errors/index.js';

export interface FallbackSettings {
  /** M3_MOCK_FALLBACK: failed calls of mockable tools are served by the tiers. */
  enabled: boolean;
  /** M3_MOCK_RECORD: successful real calls of mockable tools are stored in the cache. */
  record: boolean;
  /** M3_MOCK_LLM and M3_MOCK_LLM_MODEL. */
  simulator: { enabled: boolean; model: string };
  /** M3_MOCK_MARK_INLINE. */
  markInline: boolean;
  /** M3_MOCK_ALLOW: allow-list entries beyond the defaults (server/tool or server/*). */
  extraAllowed: string[];
  runtimeDir: string;
  fixturesDir: string;
  cacheFile: string;
  auditLogFile: string;
}

const cacheFileName = 'fallback-cache.sqlite';
const auditLogName = '_mock_calls.log';

/** The runtime layout under one folder: fixtures/<server>/<tool>.json, cache/, logs/. */
function runtimePaths(runtimeDir: string): Pick<FallbackSettings, 'runtimeDir' | 'fixturesDir' | 'cacheFile' | 'auditLogFile'> {
  return {
    runtimeDir,
    fixturesDir: path.join(runtimeDir, 'fixtures'),
    cacheFile: path.join(runtimeDir, 'cache', cacheFileName),
    auditLogFile: path.join(runtimeDir, 'logs', auditLogName),
  };
}

const modelSpecPattern = /^[A-Za-z0-9_-]+:.+$/;

/**
 * Reads the settings. A simulator model that is not `provider:model` is refused only when the
 * simulator would use it, so a bad value never breaks runs with the layer off.
 */
export function fallbackSettingsFrom(switches: Switches, root: string): FallbackSettings {
  const enabled = switches.M3_MOCK_FALLBACK;
  const record = switches.M3_MOCK_RECORD === 'auto' ? enabled : switches.M3_MOCK_RECORD;
  const simulator = { enabled: switches.M3_MOCK_LLM, model: switches.M3_MOCK_LLM_MODEL };
  if (enabled && simulator.enabled && !modelSpecPattern.test(simulator.model)) {
    throw new ConfigError(
      `M3_MOCK_LLM_MODEL=${JSON.stringify(simulator.model)} is not provider:model (e.g. anthropic:claude-opus-4-5, openai:gpt-4o, ollama:qwen2.5); set it, or M3_MOCK_LLM=0 to run without the simulator`,
    );
  }
  return {
    enabled,
    record,
    simulator,
    markInline: switches.M3_MOCK_MARK_INLINE,
    extraAllowed: switches.M3_MOCK_ALLOW,
    ...runtimePaths(path.resolve(root, switches.M3_MOCK_DIR)),
  };
}

/** True when the layer has anything to do: serving failures, or recording successes. */
export function fallbackActive(settings: FallbackSettings): boolean {
  return settings.enabled || settings.record;
}

/** The settings as written into the run manifest (paths relative to the repo when inside it). */
export function manifestFallback(settings: FallbackSettings, root: string): Record<string, unknown> {
  const shown = (file: string) => (file.startsWith(`${root}${path.sep}`) ? path.relative(root, file) : file);
  if (!fallbackActive(settings)) return { enabled: false, record: false };
  return {
    enabled: settings.enabled,
    record: settings.record,
    simulator: settings.simulator.enabled ? settings.simulator.model : null,
    markInline: settings.markInline,
    extraAllowed: settings.extraAllowed,
    fixturesDir: shown(settings.fixturesDir),
    cacheFile: shown(settings.cacheFile),
    auditLogFile: shown(settings.auditLogFile),
  };
}
