// A small element tree over the saxes XML parser (a dependency of exceljs already in
// node_modules), for the two XML answers paper_search reads: arXiv's Atom feed and PubMed's
// EFetch articles. `text` follows Python ElementTree: only the text before the first child
// (the reference read `.text`), while `allText` is every text inside (what feedparser joins).
import { SaxesParser } from 'saxes';

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** Text before the first child element (ElementTree's `.text`); undefined when there is none. */
  text: string | undefined;
  /** All text inside the element, children included. */
  allText: string;
}

class XmlParseError extends Error {}

export function parseXml(source: string): XmlElement {
  const parser = new SaxesParser();
  const root: XmlElement = { name: '#document', attributes: {}, children: [], text: undefined, allText: '' };
  const stack: XmlElement[] = [root];
  const addText = (text: string) => {
    for (const open of stack) open.allText += text;
    const current = stack[stack.length - 1];
    if (current && current.children.length === 0) current.text = (current.text ?? '') + text;
  };
  parser.on('opentag', (tag) => {
    const element: XmlElement = { name: tag.name, attributes: { ...(tag.attributes as Record<string, string>) }, children: [], text: undefined, allText: '' };
    stack[stack.length - 1]?.children.push(element);
    stack.push(element);
  });
  parser.on('closetag', () => void stack.pop());
  parser.on('text', addText);
  parser.on('cdata', addText);
  try {
    parser.write(source).close();
  } catch (error) {
    throw new XmlParseError(`not well-formed XML: ${error instanceof Error ? error.message : String(error)}`);
  }
  const documentElement = root.children[0];
  if (!documentElement) throw new XmlParseError('not well-formed XML: no document element');
  return documentElement;
}

/** Direct children named `name`. */
export function childrenNamed(element: XmlElement, name: string): XmlElement[] {
  return element.children.filter((child) => child.name === name);
}

export function child(element: XmlElement, name: string): XmlElement | undefined {
  return element.children.find((item) => item.name === name);
}

/** ElementTree's `findall('.//name')`: every descendant named `name`, in document order. */
export function descendants(element: XmlElement, name: string): XmlElement[] {
  const found: XmlElement[] = [];
  const walk = (node: XmlElement) => {
    for (const item of node.children) {
      if (item.name === name) found.push(item);
      walk(item);
    }
  };
  walk(element);
  return found;
}

/** ElementTree's `find('.//a/b')`: the first descendant path match. */
export function findPath(element: XmlElement, path: string): XmlElement | undefined {
  const [first, ...rest] = path.split('/');
  for (const candidate of descendants(element, first ?? '')) {
    let node: XmlElement | undefined = candidate;
    for (const step of rest) node = node ? child(node, step) : undefined;
    if (node) return node;
  }
  return undefined;
}
