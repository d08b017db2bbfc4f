// Per-tool output contracts for the LLM simulator: the exact layout the real tool answers in,
// so a simulated return reads like the server's own (the reference's `_CONTRACT_HINTS` in
// tools/mock_fallback.py describe the same two Amazon layouts, which servers/amazon prints).
// Tools without an entry get the generic hint plus whatever examples the cache holds.
const hints: Readonly<Record<string, string>> = {
  'amazon/search_products': [
    'Plain text, no header: one block per product, at most n blocks, each exactly',
    '- <product title>',
    '  <product page URL>',
    '  <image URL>',
    '  Price: <price such as $12.99, or N/A>',
  ].join('\n'),
  'amazon/get_product': [
    'Plain text:',
    '**<product title>**',
    '<product page URL>',
    '<image URL>',
    'Price: <price such as $12.99>',
    '',
    'Features:',
    '- <feature>',
    '- <feature>',
  ].join('\n'),
};

const genericContractHint = 'Return a realistic payload with the same type, layout and field names as the real tool (follow the examples when there are any).';

export function contractHint(canonicalName: string): string {
  return hints[canonicalName] ?? genericContractHint;
}
