// The reference's `parse_html_options`: walk the `<dt>`/`<dd>` pairs of the Home Manager options
// page or the nix-darwin manual and return {name, description, type} for the options whose name
// contains the query (or starts with the prefix), in page order, up to a limit.
//
// The reference chose the Home Manager rules when the URL contained "home-manager"; here the
// caller says which page it is (the same choice for the real URLs, and it survives a base-URL
// override).
import { pythonLength, pythonSlice, pythonSplitWords, pythonStrip } from '../shared/python-format.js';
import { findAll, findFirst, firstDirectString, getText, hasClass, nextSibling, parseHtml, type HtmlElement } from './soup.js';

export type OptionPage = 'home-manager' | 'darwin';

export interface PageOption {
  name: string;
  description: string;
  type: string;
}

export interface OptionFilter {
  query?: string;
  prefix?: string;
  limit?: number;
}

function optionName(dt: HtmlElement, page: OptionPage): string {
  if (page === 'darwin') return getText(dt, true);
  // Home Manager anchors look like <a id="opt-programs.git.enable">; "_name_" stands for <name>.
  const anchor = findFirst(dt, 'a', (element) => element.attribs.id !== undefined);
  if (anchor) {
    const id = anchor.attribs.id ?? '';
    return id.startsWith('opt-') ? id.slice(4).replaceAll('_name_', '<name>') : '';
  }
  const direct = firstDirectString(dt);
  return direct !== undefined ? pythonStrip(direct) : getText(dt, true);
}

function optionType(dd: HtmlElement): string {
  const term = findFirst(dd, 'span', (element) => hasClass(element, 'term'));
  if (term && getText(term).includes('Type:')) return pythonStrip(getText(term, true).replaceAll('Type:', ''));
  const text = getText(dd);
  if (!text.includes('Type:')) return '';
  const start = text.indexOf('Type:') + 5;
  const end = text.indexOf('\n', start);
  return pythonStrip(text.slice(start, end === -1 ? text.length : end));
}

function optionDescription(dd: HtmlElement): string {
  const paragraph = findFirst(dd, 'p');
  if (paragraph) return getText(paragraph, true);
  const text = getText(dd, true);
  return text ? (text.split('\n')[0] ?? '') : '';
}

export function parseOptionPage(html: string, page: OptionPage, filter: OptionFilter = {}): PageOption[] {
  const { query = '', prefix = '', limit = 100 } = filter;
  const options: PageOption[] = [];
  for (const dt of findAll(parseHtml(html), 'dt')) {
    const name = optionName(dt, page);
    // Not an option when it has no dot and several words.
    if (!name.includes('.') && pythonSplitWords(name).length > 1) continue;
    if (query && !name.toLowerCase().includes(query.toLowerCase())) continue;
    if (prefix && !(name.startsWith(`${prefix}.`) || name === prefix)) continue;
    const dd = nextSibling(dt, 'dd');
    if (!dd) continue;
    const description = optionDescription(dd);
    options.push({ name, description: pythonLength(description) > 200 ? pythonSlice(description, 200) : description, type: optionType(dd) });
    if (options.length >= limit) break;
  }
  return options;
}
