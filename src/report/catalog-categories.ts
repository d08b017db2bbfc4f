// The report's category donut input. `m3 run` writes two catalogs side by side: ours
// (tools_catalog.json, schemas, no labels) and the reference layout (mcp_tools_with_desc.json),
// which `m3 tools classify` labels. A report given our file (scripts/benchmark_fuzzy.sh passes
// it) takes the category of each tool from the labelled file beside it.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadToolCatalog, type ToolCatalog } from '../eval/call/catalog.js';

const labelledFileName = 'mcp_tools_with_desc.json';

export function loadReportCatalog(file: string): ToolCatalog {
  const catalog = loadToolCatalog(file);
  if ([...catalog.tools.values()].some((entry) => entry.category)) return catalog;
  const beside = path.join(path.dirname(file), labelledFileName);
  if (path.resolve(beside) === path.resolve(file) || !existsSync(beside)) return catalog;
  const labels = loadToolCatalog(beside).tools;
  const tools = new Map(
    [...catalog.tools].map(([name, entry]) => {
      const category = labels.get(name)?.category;
      return [name, category ? { ...entry, category } : entry] as const;
    }),
  );
  return { source: catalog.source, tools };
}
