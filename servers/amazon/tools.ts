// The reference amazon server's two tools (the reference project's servers/amazon_mcp.py), answering in its plain-text
// layouts: a search is one block per product "- <title>\n  <link>\n  <image>\n  Price: <raw>",
// a product is "**<title>**\n<link>\n<image>\nPrice: <raw>\n" plus a "Features:" list.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { registerKeyedTool } from '../shared/keyed-tool.js';
import { textResult } from '../shared/tool-result.js';
import { pythonStr } from '../shared/python-format.js';
import { KEY_NAMES, rainforest } from './rainforest.js';

type Json = Record<string, unknown>;
const record = (value: unknown): Json => (value && typeof value === 'object' ? (value as Json) : {});
/** `d.get(key, default)`: the default only when the key is absent (a null prints as None). */
const get = (item: Json, key: string, fallback = ''): unknown => (key in item ? item[key] : fallback);

function searchPrice(item: Json): string {
  const raw = record(item.price).raw;
  if (raw) return pythonStr(raw);
  const buybox = record(record(item.buybox_winner).price);
  return 'raw' in buybox ? pythonStr(buybox.raw) : 'N/A';
}

function productPrice(product: Json): string {
  const raw = record(record(product.buybox_winner).price).raw || record(product.price).raw;
  return raw ? pythonStr(raw) : 'N/A';
}

function domainOf(value: string | undefined): string {
  return (value ?? '').trim() || 'amazon.com';
}

export function registerAmazonTools(server: McpServer): void {
  registerKeyedTool(
    server,
    KEY_NAMES,
    {
      name: 'search_products',
      description:
        'Search Amazon products via Rainforest API and return a concise plain-text list.\nArgs:\n  keywords (str): Product search keywords.\n  n (int): Number of results to include (1–10).\n  page (int): Result page index starting from 1.\n  amazon_domain (str): Amazon domain such as "amazon.com".\nReturns:\n  result (str): Plain-text list of up to n products or an error message.',
      shape: { keywords: z.string(), n: z.number().int().default(1), page: z.number().int().default(1), amazon_domain: z.string().default('amazon.com') },
    },
    async ({ keywords, n, page, amazon_domain }) => {
      const term = keywords.trim();
      if (!term) return textResult("Missing 'keywords'.");
      const count = Math.max(1, Math.min(Math.trunc(n), 10));
      const body = await rainforest<Json>({
        type: 'search',
        amazon_domain: domainOf(amazon_domain),
        search_term: term,
        page: Math.max(1, Math.trunc(page) || 1),
      });
      const items = (Array.isArray(body?.search_results) ? body.search_results : []).slice(0, count).map(record);
      if (items.length === 0) return textResult('No results.');
      const blocks = items.map(
        (item) => `- ${pythonStr(get(item, 'title'))}\n  ${pythonStr(get(item, 'link'))}\n  ${pythonStr(get(item, 'image'))}\n  Price: ${searchPrice(item)}`,
      );
      return textResult(blocks.join('\n'));
    },
  );

  registerKeyedTool(
    server,
    KEY_NAMES,
    {
      name: 'get_product',
      description:
        'Retrieve product details for a specific Amazon ASIN via Rainforest API.\nArgs:\n  asin (str): Amazon Standard Identification Number.\n  amazon_domain (str): Amazon domain such as "amazon.com".\nReturns:\n  result (str): Plain-text block with title, URLs, price, features, or an error message.',
      shape: { asin: z.string(), amazon_domain: z.string().default('amazon.com') },
    },
    async ({ asin, amazon_domain }) => {
      const id = asin.trim();
      if (!id) return textResult("Missing 'asin'.");
      const body = await rainforest<Json>({ type: 'product', amazon_domain: domainOf(amazon_domain), asin: id });
      const product = record(body?.product);
      if (Object.keys(product).length === 0) return textResult('No product found.');
      const features = Array.isArray(product.features) ? product.features : [];
      const lines = [
        `**${pythonStr(get(product, 'title'))}**`,
        pythonStr(get(product, 'link')),
        pythonStr(get(record(product.main_image), 'link')),
        `Price: ${productPrice(product)}`,
        '',
      ];
      if (features.length > 0) lines.push('Features:', ...features.map((feature) => `- ${pythonStr(feature)}`));
      return textResult(lines.join('\n'));
    },
  );
}
