// The tool categories of the reference's 2026 CV evaluator (evaluate_cv_issues.py):
//   perception  ocr/perform_ocr, dinox-mcp/detect-all-objects, dinox-mcp/detect-objects-by-text,
//               pyzbar-mcp/scan_barcode, and every imagesorcery-mcp/ tool;
//   grounding   amazon/search_products, google-maps/places_text_search, wiki/search, and every
//               car-price/ and food_nutrition_mcp/ tool;
//   planning    everything else.
// Our local detector is served as `dinox-mcp` (mcp_servers.json); predictions written while it
// was keyed `mcp-yolo` (same tool names) are categorised as `dinox-mcp/<tool>` too. This changes
// only the category; matching still pairs calls by their recorded tool name.
import { splitCanonical } from '../../core/canonical-name.js';

export type CvCategory = 'perception' | 'grounding' | 'planning';

const perceptionTools = new Set(['ocr/perform_ocr', 'dinox-mcp/detect-all-objects', 'dinox-mcp/detect-objects-by-text', 'pyzbar-mcp/scan_barcode']);
const perceptionPrefixes = ['imagesorcery-mcp/'];
const groundingTools = new Set(['amazon/search_products', 'google-maps/places_text_search', 'wiki/search']);
const groundingPrefixes = ['car-price/', 'food_nutrition_mcp/'];

/** Server keys that stand in for a reference server under another key. */
const serverAliases: Readonly<Record<string, string>> = { 'mcp-yolo': 'dinox-mcp' };

function canonicalTool(tool: string): string {
  const parts = splitCanonical(tool);
  const alias = parts ? serverAliases[parts.server] : undefined;
  return parts && alias ? `${alias}/${parts.tool}` : tool;
}

export function categorise(tool: string): CvCategory {
  const name = canonicalTool(tool);
  if (perceptionTools.has(name) || perceptionPrefixes.some((prefix) => name.startsWith(prefix))) return 'perception';
  if (groundingTools.has(name) || groundingPrefixes.some((prefix) => name.startsWith(prefix))) return 'grounding';
  return 'planning';
}
