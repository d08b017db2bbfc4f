// Reading the two HTML pages paper_search scrapes (Google Scholar results, IACR ePrint) the way
// the reference's BeautifulSoup calls read them. No HTML parser is installed, so this matches
// the documented page structure with regular expressions on class names, and reproduces the
// two text readings the reference used: `get_text()` (all text, entities decoded) and
// `get_text(strip=True)` (each text piece stripped, empty pieces dropped, joined with nothing).

const named: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  hellip: '\u2026',
  ndash: '\u2013',
  mdash: '\u2014',
  lsquo: '\u2018',
  rsquo: '\u2019',
  ldquo: '\u201c',
  rdquo: '\u201d',
  copy: '\u00a9',
  reg: '\u00ae',
  trade: '\u2122',
  middot: '\u00b7',
  bull: '\u2022',
  times: '\u00d7',
  eacute: '\u00e9',
  uuml: '\u00fc',
  ouml: '\u00f6',
  auml: '\u00e4',
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code: string) => {
    if (code.startsWith('#x') || code.startsWith('#X')) return String.fromCodePoint(Number.parseInt(code.slice(2), 16));
    if (code.startsWith('#')) return String.fromCodePoint(Number.parseInt(code.slice(1), 10));
    return named[code] ?? named[code.toLowerCase()] ?? whole;
  });
}

/** The text pieces between tags (comments and scripts dropped), entities decoded. */
function textPieces(fragment: string): string[] {
  const cleaned = fragment.replace(/<!--[\s\S]*?-->/g, '').replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, '');
  return cleaned.split(/<[^>]*>/).map(decodeEntities);
}

/** BeautifulSoup `get_text()`. */
export function getText(fragment: string): string {
  return textPieces(fragment).join('');
}

/** BeautifulSoup `get_text(strip=True)`: note that the pieces are joined with no space. */
export function getStrippedText(fragment: string): string {
  return textPieces(fragment)
    .map((piece) => piece.trim())
    .filter(Boolean)
    .join('');
}

const classPattern = (className: string) => `class="(?:[^"]*\\s)?${className}(?:\\s[^"]*)?"`;

/** The inner HTML of the first `<tag class="… className …">…</tag>` (no same-tag nesting inside). */
export function innerOf(html: string, tag: string, className: string): string | undefined {
  const match = new RegExp(`<${tag}\\b[^>]*${classPattern(className)}[^>]*>([\\s\\S]*?)</${tag}>`, 'i').exec(html);
  return match?.[1];
}

/** The chunks that start at each `<tag class="… className …">`, each up to the next one. */
export function blocksStartingAt(html: string, tag: string, className: string): string[] {
  const starts = [...html.matchAll(new RegExp(`<${tag}\\b[^>]*${classPattern(className)}[^>]*>`, 'gi'))].map((match) => match.index ?? 0);
  return starts.map((start, index) => html.slice(start, starts[index + 1] ?? html.length));
}

/** The first `<a …>` with an href: its decoded href and inner HTML. */
export function firstLink(html: string): { href: string; inner: string } | undefined {
  const match = /<a\b[^>]*\bhref="([^"]*)"[^>]*>([\s\S]*?)<\/a>/i.exec(html);
  return match ? { href: decodeEntities(match[1] ?? ''), inner: match[2] ?? '' } : undefined;
}

export interface HtmlElement {
  attributes: Record<string, string>;
  classes: string[];
  inner: string;
}

/** Every `<tag …>…</tag>` (no same-tag nesting inside), with its decoded attributes. */
export function elements(html: string, tag: string): HtmlElement[] {
  return [...html.matchAll(new RegExp(`<${tag}\\b([^>]*)>([\\s\\S]*?)</${tag}>`, 'gi'))].map((match) => {
    const attributes: Record<string, string> = {};
    for (const attribute of (match[1] ?? '').matchAll(/([\w:-]+)\s*=\s*"([^"]*)"/g))
      attributes[(attribute[1] ?? '').toLowerCase()] = decodeEntities(attribute[2] ?? '');
    return { attributes, classes: (attributes.class ?? '').split(/\s+/).filter(Boolean), inner: match[2] ?? '' };
  });
}
