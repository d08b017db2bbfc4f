// Reads an existing .pptx/.potx (a zip of OOXML parts) into the in-memory model, for
// open_presentation, create_presentation_from_template and get_template_file_info. What is read:
// the slide order (presentation.xml and its relationships), the slide size, every slide's text
// shapes (placeholder role, position, paragraphs) and pictures (bytes typed by their magic
// number), each slide's layout name, the layouts with their placeholder counts, and the core
// properties. Anything else on a slide (charts, tables, SmartArt) is counted, not modelled.
import JSZip from 'jszip';
import type { Box, Slide, SlideElement, TextElement } from './model.js';

const emuPerInch = 914_400;

interface TemplateLayout {
  index: number;
  name: string;
  placeholder_count: number;
}

export interface ReadPresentation {
  slides: Slide[];
  layouts: TemplateLayout[];
  slideSizeInches: { width: number; height: number };
  properties: { title?: string; subject?: string; author?: string; keywords?: string; comments?: string };
  /** Per slide, the shapes that were not modelled (graphic frames, groups' non-text parts). */
  skippedShapes: number;
}

const decode = (text: string): string =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&amp;/g, '&');

async function part(zip: JSZip, name: string): Promise<string | undefined> {
  return zip.file(name)?.async('string');
}

/** Relationship id -> target part name, resolved against the part's folder. */
function relationships(xml: string | undefined, folder: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const match of (xml ?? '').matchAll(/<Relationship\b([^>]*)\/?>/g)) {
    const attributes = match[1] ?? '';
    const id = /\bId="([^"]+)"/.exec(attributes)?.[1];
    const target = /\bTarget="([^"]+)"/.exec(attributes)?.[1];
    if (id && target) map.set(id, target.startsWith('/') ? target.slice(1) : normalise(`${folder}/${target}`));
  }
  return map;
}

function normalise(name: string): string {
  const parts: string[] = [];
  for (const piece of name.split('/')) {
    if (piece === '..') parts.pop();
    else if (piece !== '.' && piece !== '') parts.push(piece);
  }
  return parts.join('/');
}

const relsOf = (name: string): string => name.replace(/([^/]+)$/, '_rels/$1.rels');
const folderOf = (name: string): string => name.replace(/\/[^/]+$/, '');

function boxOf(xml: string, fallback: Box): Box {
  const off = /<a:off\s+x="(-?\d+)"\s+y="(-?\d+)"/.exec(xml);
  const ext = /<a:ext\s+cx="(\d+)"\s+cy="(\d+)"/.exec(xml);
  if (!off || !ext) return fallback;
  return { left: Number(off[1]) / emuPerInch, top: Number(off[2]) / emuPerInch, width: Number(ext[1]) / emuPerInch, height: Number(ext[2]) / emuPerInch };
}

/** A placeholder's type; else the shape name our renderer gives titles and subtitles (render.ts). */
function roleOf(xml: string): TextElement['role'] {
  const placeholder = /<p:ph\b([^>]*)>/.exec(xml);
  if (!placeholder) {
    const name = /<p:cNvPr\b[^>]*\bname="([^"]*)"/.exec(xml)?.[1];
    return name === 'Title' ? 'title' : name === 'Subtitle' ? 'subtitle' : 'textbox';
  }
  const type = /\btype="([^"]+)"/.exec(placeholder[1] ?? '')?.[1];
  if (type === 'title' || type === 'ctrTitle') return 'title';
  if (type === 'subTitle') return 'subtitle';
  return 'body';
}

function paragraphsOf(xml: string): string[] {
  return [...xml.matchAll(/<a:p>([\s\S]*?)<\/a:p>|<a:p\s[^>]*>([\s\S]*?)<\/a:p>/g)].map((match) =>
    [...(match[1] ?? match[2] ?? '').matchAll(/<a:t>([^<]*)<\/a:t>/g)].map((run) => decode(run[1] ?? '')).join(''),
  );
}

function mediaTypeOf(bytes: Buffer): string | undefined {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.subarray(0, 4).toString('latin1') === 'GIF8') return 'image/gif';
  return undefined;
}

async function readSlide(zip: JSZip, name: string, size: { width: number; height: number }): Promise<{ slide: Slide; skipped: number }> {
  const xml = (await part(zip, name)) ?? '';
  const rels = relationships(await part(zip, relsOf(name)), folderOf(name));
  const elements: SlideElement[] = [];
  let skipped = 0;
  const whole: Box = { left: 0.5, top: 0.5, width: size.width - 1, height: size.height - 1 };
  for (const match of xml.matchAll(/<p:sp>([\s\S]*?)<\/p:sp>|<p:pic>([\s\S]*?)<\/p:pic>|<p:graphicFrame>[\s\S]*?<\/p:graphicFrame>/g)) {
    if (match[1] !== undefined) {
      const text = paragraphsOf(match[1]).join('\n');
      if (text === '') continue;
      elements.push({ kind: 'text', role: roleOf(match[1]), box: boxOf(match[1], whole), runs: [{ text }], style: {} });
    } else if (match[2] !== undefined) {
      const target = rels.get(/r:embed="([^"]+)"/.exec(match[2])?.[1] ?? '');
      const data = target ? await zip.file(target)?.async('nodebuffer') : undefined;
      const mediaType = data ? mediaTypeOf(data) : undefined;
      if (!data || !target || !mediaType) skipped += 1;
      else elements.push({ kind: 'image', box: boxOf(match[2], whole), data, mediaType, source: target });
    } else skipped += 1;
  }
  const layoutPart = [...rels.values()].find((target) => target.includes('slideLayouts/'));
  const layoutXml = layoutPart ? await part(zip, layoutPart) : undefined;
  const layoutName = decode(/<p:cSld\s+name="([^"]*)"/.exec(layoutXml ?? '')?.[1] ?? 'unknown');
  const layoutIndex = Number(/slideLayout(\d+)\.xml$/.exec(layoutPart ?? '')?.[1] ?? 1) - 1;
  return { slide: { layoutIndex, layoutName, elements }, skipped };
}

async function readLayouts(zip: JSZip): Promise<TemplateLayout[]> {
  const names = Object.keys(zip.files)
    .filter((name) => /^ppt\/slideLayouts\/slideLayout\d+\.xml$/.test(name))
    .sort((a, b) => Number(/(\d+)\.xml$/.exec(a)?.[1]) - Number(/(\d+)\.xml$/.exec(b)?.[1]));
  return Promise.all(
    names.map(async (name, index) => {
      const xml = (await part(zip, name)) ?? '';
      return {
        index,
        name: decode(/<p:cSld\s+name="([^"]*)"/.exec(xml)?.[1] ?? `Layout ${index + 1}`),
        placeholder_count: [...xml.matchAll(/<p:ph\b/g)].length,
      };
    }),
  );
}

function readProperties(xml: string | undefined): ReadPresentation['properties'] {
  const field = (tag: string) => {
    const value = new RegExp(`<${tag}(?:\\s[^>]*)?>([^<]*)</${tag}>`).exec(xml ?? '')?.[1];
    return value ? decode(value) : undefined;
  };
  const entries = {
    title: field('dc:title'),
    subject: field('dc:subject'),
    author: field('dc:creator'),
    keywords: field('cp:keywords'),
    comments: field('dc:description'),
  };
  return Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined));
}

/** Parses the bytes of a .pptx/.potx; throws a readable error for anything that is not one. */
export async function readPresentationFile(bytes: Buffer, file: string): Promise<ReadPresentation> {
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes);
  } catch {
    throw new Error(`${file} is not a .pptx/.potx file (not a zip archive)`);
  }
  const presentation = await part(zip, 'ppt/presentation.xml');
  if (!presentation) throw new Error(`${file} is not a .pptx/.potx file (no ppt/presentation.xml inside)`);
  const size = /<p:sldSz\s+cx="(\d+)"\s+cy="(\d+)"/.exec(presentation);
  const slideSizeInches = size ? { width: Number(size[1]) / emuPerInch, height: Number(size[2]) / emuPerInch } : { width: 13.333, height: 7.5 };
  const rels = relationships(await part(zip, 'ppt/_rels/presentation.xml.rels'), 'ppt');
  const order = [...presentation.matchAll(/<p:sldId\b[^>]*\br:id="([^"]+)"/g)].map((match) => rels.get(match[1] ?? '')).filter((name) => name !== undefined);
  const read = [];
  for (const name of order) read.push(await readSlide(zip, name, slideSizeInches));
  return {
    slides: read.map((entry) => entry.slide),
    layouts: await readLayouts(zip),
    slideSizeInches,
    properties: readProperties(await part(zip, 'docProps/core.xml')),
    skippedShapes: read.reduce((sum, entry) => sum + entry.skipped, 0),
  };
}
