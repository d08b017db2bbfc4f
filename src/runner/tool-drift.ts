// Tool-surface drift: a resumed run, or shards being merged, whose servers list different tools
// (names, descriptions or schemas) than the run recorded. Predictions made against two tool
// surfaces are not one run's results, so drift is refused unless the caller allows it, and then
// it is written into the manifest.
import { ConfigError } from '../errors/index.js';

export interface ToolDrift {
  server: string;
  recorded: string | null;
  current: string | null;
}

/** Servers whose per-server tools hash differs (or that appear on one side only). */
export function toolSurfaceDrift(recorded: Readonly<Record<string, string>>, current: Readonly<Record<string, string>>): ToolDrift[] {
  const servers = [...new Set([...Object.keys(recorded), ...Object.keys(current)])].sort();
  return servers
    .map((server) => ({ server, recorded: recorded[server] ?? null, current: current[server] ?? null }))
    .filter((entry) => entry.recorded !== entry.current);
}

function describeDrift(drift: readonly ToolDrift[]): string {
  return drift
    .map((entry) => {
      if (entry.recorded === null) return `${entry.server} (new)`;
      if (entry.current === null) return `${entry.server} (gone)`;
      return `${entry.server} (${entry.recorded.slice(0, 12)} -> ${entry.current.slice(0, 12)})`;
    })
    .join(', ');
}

/** Throws unless `allow`; returns the drift so the caller can record it. */
export function checkToolDrift(what: string, drift: readonly ToolDrift[], allow: boolean, flag = '--allow-tool-drift'): readonly ToolDrift[] {
  if (drift.length > 0 && !allow) {
    throw new ConfigError(
      `${what}: the tool surface changed since it was recorded: ${describeDrift(drift)}; results against two tool lists are not comparable (pass ${flag} to continue anyway; the drift is then written into the manifest)`,
    );
  }
  return drift;
}
