// Lexical tool pre-ranking (reference TOP_TOOLS): score = number of distinct query tokens that
// occur in the tool's name/description/schema. Ties go to the alphabetically first name
// (the reference sorted them in reverse, bug 15).
import type { CatalogTool } from '../mcp/types.js';

export function rankTools(query: string, tools: readonly CatalogTool[], limit: number): CatalogTool[] {
  if (limit <= 0 || limit >= tools.length) return [...tools];
  const tokens = new Set(query.toLowerCase().match(/[a-z0-9_]+/g) ?? []);
  const scored = tools.map((tool) => {
    const haystack = [tool.canonicalName, tool.tool, tool.description, JSON.stringify(tool.inputSchema)].join(' ').toLowerCase();
    let score = 0;
    for (const token of tokens) if (haystack.includes(token)) score += 1;
    return { tool, score };
  });
  const positive = scored.filter((entry) => entry.score > 0);
  if (positive.length === 0) return tools.slice(0, limit);
  positive.sort((a, b) => b.score - a.score || a.tool.canonicalName.localeCompare(b.tool.canonicalName));
  return positive.slice(0, limit).map((entry) => entry.tool);
}
