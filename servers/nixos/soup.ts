// The few BeautifulSoup operations the reference's option-page parser uses, on an htmlparser2
// tree (which, like Python's html.parser, keeps every whitespace text node and does not rebuild
// the tree the way an HTML5 parser would): find_all, find, find_next_sibling, get_text.
import { parseDocument } from 'htmlparser2';
import { pythonStrip } from '../shared/python-format.js';

type HtmlDocument = ReturnType<typeof parseDocument>;
type HtmlNode = HtmlDocument['children'][number];
export interface HtmlElement {
  type: string;
  name: string;
  attribs: Record<string, string>;
  children: HtmlNode[];
  next: HtmlNode | null;
}

export function parseHtml(html: string): HtmlDocument {
  return parseDocument(html, { recognizeSelfClosing: true });
}

function isElement(node: unknown): node is HtmlElement {
  const type = (node as { type?: string } | null)?.type;
  return type === 'tag' || type === 'script' || type === 'style';
}

function childrenOf(node: unknown): HtmlNode[] {
  const children = (node as { children?: HtmlNode[] }).children;
  return Array.isArray(children) ? children : [];
}

/** `soup.find_all(name)`: descendant elements in document order. */
export function findAll(root: unknown, name: string): HtmlElement[] {
  const found: HtmlElement[] = [];
  const stack = [...childrenOf(root)].reverse();
  while (stack.length > 0) {
    const node = stack.pop();
    if (!isElement(node)) continue;
    if (node.name === name) found.push(node);
    for (let index = node.children.length - 1; index >= 0; index -= 1) stack.push(node.children[index] as HtmlNode);
  }
  return found;
}

/** `tag.find(name, ...)`: the first descendant element that matches. */
export function findFirst(root: unknown, name: string, matches: (element: HtmlElement) => boolean = () => true): HtmlElement | undefined {
  return findAll(root, name).find(matches);
}

/** `tag.find_next_sibling(name)`: the next sibling element with that name (others skipped). */
export function nextSibling(element: HtmlElement, name: string): HtmlElement | undefined {
  for (let node: unknown = element.next; node; node = (node as { next: unknown }).next) {
    if (isElement(node) && node.name === name) return node;
  }
  return undefined;
}

/** `class_="term"`: the class attribute holds that class among its space-separated values. */
export function hasClass(element: HtmlElement, className: string): boolean {
  return (element.attribs.class ?? '').split(/\s+/).includes(className);
}

/** The text and CDATA strings under a node, in order (comments and doctypes excluded). */
function strings(node: unknown, out: string[] = []): string[] {
  for (const child of childrenOf(node)) {
    const type = (child as { type: string }).type;
    if (type === 'text') out.push((child as { data: string }).data);
    else if (type === 'cdata' || isElement(child)) strings(child, out);
  }
  return out;
}

/** `tag.get_text()`, or `get_text(strip=True)`: every string stripped, empty ones dropped, joined with "". */
export function getText(node: unknown, strip = false): string {
  const parts = strings(node);
  return strip
    ? parts
        .map(pythonStrip)
        .filter((part) => part !== '')
        .join('')
    : parts.join('');
}

/** `tag.find(string=True, recursive=False)`: the first text child, whitespace-only included. */
export function firstDirectString(element: HtmlElement): string | undefined {
  const text = element.children.find((child) => (child as { type: string }).type === 'text');
  return text ? (text as unknown as { data: string }).data : undefined;
}
