// The live tool surface a run saw, written beside the predictions in two layouts:
//   tools_catalog.json        ours: the tools-hash, each server's status and every tool with
//                             its input schema (call-level evaluation, the tools-per-server chart)
//   mcp_tools_with_desc.json  the reference's `{server: {tool: {description, catalogry?}}}`,
//                             which its tools/fig_tools_distribution.py and
//                             tools/classify_mcp_tools.py read. Category labels (`catalogry`,
//                             the reference's spelling) that a labelling pass added to an
//                             earlier file (labelSourcesFor) are kept for tools that still exist.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ToolHost } from '../mcp/types.js';
import { loadJsonFile } from '../tasks/load-json.js';
import { writeJsonAtomic } from '../tasks/write-json.js';
import { toolCatalogFiles } from '../results/layout.js';

type ReferenceCatalog = Record<string, Record<string, Record<string, unknown>>>;

function earlierEntries(file: string): ReferenceCatalog {
  if (!existsSync(file)) return {};
  try {
    const raw = loadJsonFile(file);
    return raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as ReferenceCatalog) : {};
  } catch {
    // An unreadable earlier file only loses its labels; the new one is written from the live surface.
    return {};
  }
}

/** The reference layout of the host's tools, keeping extra keys of tools an earlier file labelled. */
function toReferenceCatalog(host: Pick<ToolHost, 'tools' | 'status'>, earlier: ReferenceCatalog = {}): ReferenceCatalog {
  const catalog: ReferenceCatalog = {};
  // Every running server has its bucket, even one that lists no tools (as the reference's merge does).
  for (const server of host.status()) if (server.state === 'ready') catalog[server.name] = {};
  for (const tool of host.tools) {
    const previous = earlier[tool.server]?.[tool.tool];
    const kept = previous && typeof previous === 'object' && !Array.isArray(previous) ? previous : {};
    const bucket = catalog[tool.server] ?? {};
    bucket[tool.tool] = { ...kept, description: tool.description };
    catalog[tool.server] = bucket;
  }
  return catalog;
}

/**
 * Where a run's reference catalog takes earlier category labels from: its own file (a resumed
 * run), else the results folder's labelled catalog (what `m3 tools classify` writes by default),
 * else the latest finished run's. Each run has its own folder, so labels reach it only this way.
 */
export function labelSourcesFor(runDir: string, resultsDir: string): string[] {
  return [toolCatalogFiles(runDir).reference, toolCatalogFiles(resultsDir).reference, toolCatalogFiles(path.join(resultsDir, 'latest')).reference];
}

/** Writes both catalog files into `runDir`; returns their paths. `labelSources`: the first existing one lends its labels. */
export function writeToolCatalogs(runDir: string, host: ToolHost, labelSources: readonly string[] = []): { catalog: string; reference: string } {
  const { ours: catalog, reference } = toolCatalogFiles(runDir);
  const source = [reference, ...labelSources].find((file) => existsSync(file));
  writeJsonAtomic(catalog, { toolsHash: host.toolsHash(), servers: host.status(), tools: host.tools });
  writeJsonAtomic(reference, toReferenceCatalog(host, source ? earlierEntries(source) : {}));
  return { catalog, reference };
}
