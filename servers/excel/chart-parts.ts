// Chart parts inside a saved .xlsx (a zip): exceljs neither writes nor keeps charts, so after
// every save the charts are put (back) into the package by hand: the chart part
// (xl/charts/chartN.xml), a drawing holding its anchor (xl/drawings/drawingN.xml) with its rels,
// the sheet's <drawing> element and rel, and the [Content_Types].xml overrides.
// `extractCharts` reads back the charts this module wrote, so a later tool call that rewrites
// the workbook through exceljs keeps them (as openpyxl keeps charts in the reference).
import path from 'node:path';
import JSZip from 'jszip';

export interface PlacedChart {
  /** The sheet the chart is drawn on. */
  sheet: string;
  /** The drawing anchor, with RELATION_ID where the chart's relationship id goes. */
  anchorXml: string;
  chartXml: string;
}

export const RELATION_ID = '__M3_CHART_RELATION__';

const relTypes = {
  drawing: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/drawing',
  chart: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart',
};
const contentTypes = {
  chart: 'application/vnd.openxmlformats-officedocument.drawingml.chart+xml',
  drawing: 'application/vnd.openxmlformats-officedocument.drawing+xml',
};
const namespaces =
  'xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" ' +
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ' +
  'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';

interface Relationship {
  id: string;
  type: string;
  target: string;
}

function unescapeXml(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return match ? unescapeXml(match[1] ?? '') : undefined;
}

async function text(zip: JSZip, part: string): Promise<string | undefined> {
  return zip.file(part)?.async('string');
}

function relsPathOf(part: string): string {
  return path.posix.join(path.posix.dirname(part), '_rels', `${path.posix.basename(part)}.rels`);
}

async function relationships(zip: JSZip, part: string): Promise<Relationship[]> {
  const xml = (await text(zip, relsPathOf(part))) ?? '';
  return [...xml.matchAll(/<Relationship\b[^>]*>/g)].map(([tag]) => ({
    id: attribute(tag, 'Id') ?? '',
    type: attribute(tag, 'Type') ?? '',
    target: path.posix.normalize(path.posix.join(path.posix.dirname(part), attribute(tag, 'Target') ?? '')),
  }));
}

/** Sheet name → worksheet part (e.g. xl/worksheets/sheet1.xml), from the workbook and its rels. */
async function sheetParts(zip: JSZip): Promise<Map<string, string>> {
  const workbook = (await text(zip, 'xl/workbook.xml')) ?? '';
  const rels = await relationships(zip, 'xl/workbook.xml');
  const parts = new Map<string, string>();
  for (const [tag] of workbook.matchAll(/<sheet\b[^>]*>/g)) {
    const target = rels.find((rel) => rel.id === attribute(tag, 'r:id'))?.target;
    const name = attribute(tag, 'name');
    if (target && name !== undefined) parts.set(name, target);
  }
  return parts;
}

/** The charts of every sheet, as written by `addCharts`. */
export async function extractCharts(bytes: Buffer): Promise<PlacedChart[]> {
  const zip = await JSZip.loadAsync(bytes);
  const found: PlacedChart[] = [];
  for (const [sheet, part] of await sheetParts(zip)) {
    for (const drawing of (await relationships(zip, part)).filter((rel) => rel.type === relTypes.drawing)) {
      const drawingXml = (await text(zip, drawing.target)) ?? '';
      const charts = (await relationships(zip, drawing.target)).filter((rel) => rel.type === relTypes.chart);
      for (const [anchor] of drawingXml.matchAll(/<xdr:(oneCellAnchor|twoCellAnchor|absoluteAnchor)>[\s\S]*?<\/xdr:\1>/g)) {
        const chart = charts.find((rel) => anchor.includes(`r:id="${rel.id}"`));
        const chartXml = chart ? await text(zip, chart.target) : undefined;
        if (chart && chartXml) found.push({ sheet, anchorXml: anchor.replace(`r:id="${chart.id}"`, `r:id="${RELATION_ID}"`), chartXml });
      }
    }
  }
  return found;
}

function nextFree(zip: JSZip, pattern: (n: number) => string): number {
  let n = 1;
  while (zip.file(pattern(n))) n += 1;
  return n;
}

function nextRelationId(rels: Relationship[]): string {
  const used = rels.map((rel) => Number(/^rId(\d+)$/.exec(rel.id)?.[1] ?? 0));
  return `rId${Math.max(0, ...used) + 1}`;
}

function appendRelationship(xml: string | undefined, rel: { id: string; type: string; target: string }): string {
  const entry = `<Relationship Id="${rel.id}" Type="${rel.type}" Target="${rel.target}"/>`;
  if (!xml)
    return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${entry}</Relationships>`;
  return xml.replace('</Relationships>', `${entry}</Relationships>`);
}

/** Schema order: <drawing> comes before these elements of a worksheet. */
const afterDrawing = ['legacyDrawing', 'legacyDrawingHF', 'drawingHF', 'picture', 'oleObjects', 'controls', 'webPublishItems', 'tableParts', 'extLst'];

function insertDrawingElement(sheetXml: string, relationId: string): string {
  const element = `<drawing xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" r:id="${relationId}"/>`;
  const positions = afterDrawing.map((name) => sheetXml.search(new RegExp(`<${name}[\\s/>]`))).filter((index) => index >= 0);
  const at = positions.length > 0 ? Math.min(...positions) : sheetXml.lastIndexOf('</worksheet>');
  return `${sheetXml.slice(0, at)}${element}${sheetXml.slice(at)}`;
}

function addOverride(types: string, part: string, contentType: string): string {
  return types.replace('</Types>', `<Override PartName="/${part}" ContentType="${contentType}"/></Types>`);
}

/** The drawing part of a sheet, created (with the sheet's <drawing> element) when it has none. */
async function drawingOf(zip: JSZip, sheetPart: string, types: { xml: string }): Promise<string> {
  const sheetRels = await relationships(zip, sheetPart);
  const existing = sheetRels.find((rel) => rel.type === relTypes.drawing);
  if (existing) return existing.target;
  const n = nextFree(zip, (i) => `xl/drawings/drawing${i}.xml`);
  const drawing = `xl/drawings/drawing${n}.xml`;
  zip.file(drawing, `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<xdr:wsDr ${namespaces}></xdr:wsDr>`);
  types.xml = addOverride(types.xml, drawing, contentTypes.drawing);
  const id = nextRelationId(sheetRels);
  const relative = path.posix.relative(path.posix.dirname(sheetPart), drawing);
  zip.file(relsPathOf(sheetPart), appendRelationship(await text(zip, relsPathOf(sheetPart)), { id, type: relTypes.drawing, target: relative }));
  zip.file(sheetPart, insertDrawingElement((await text(zip, sheetPart)) ?? '', id));
  return drawing;
}

async function addChart(zip: JSZip, sheetPart: string, chart: PlacedChart, types: { xml: string }): Promise<void> {
  const drawing = await drawingOf(zip, sheetPart, types);
  const n = nextFree(zip, (i) => `xl/charts/chart${i}.xml`);
  const chartPart = `xl/charts/chart${n}.xml`;
  zip.file(chartPart, chart.chartXml);
  types.xml = addOverride(types.xml, chartPart, contentTypes.chart);
  const id = nextRelationId(await relationships(zip, drawing));
  const relative = path.posix.relative(path.posix.dirname(drawing), chartPart);
  zip.file(relsPathOf(drawing), appendRelationship(await text(zip, relsPathOf(drawing)), { id, type: relTypes.chart, target: relative }));
  const drawingXml = (await text(zip, drawing)) ?? '';
  // Frame ids must be unique inside one drawing.
  const frameId = (drawingXml.match(/<xdr:cNvPr\b/g) ?? []).length + 1;
  const anchor = chart.anchorXml
    .replace(`r:id="${RELATION_ID}"`, `r:id="${id}"`)
    .replace(/<xdr:cNvPr id="\d+" name="Chart \d+"/, `<xdr:cNvPr id="${frameId}" name="Chart ${frameId}"`);
  const closing = drawingXml.lastIndexOf('</xdr:wsDr>');
  if (closing < 0) throw new Error(`cannot add a chart to ${drawing}: it is not a spreadsheet drawing this server can extend`);
  zip.file(drawing, `${drawingXml.slice(0, closing)}${anchor}${drawingXml.slice(closing)}`);
}

/** Writes `charts` into the package; charts of sheets that no longer exist are dropped (named in the result). */
export async function addCharts(bytes: Buffer, charts: PlacedChart[]): Promise<{ bytes: Buffer; dropped: PlacedChart[] }> {
  if (charts.length === 0) return { bytes, dropped: [] };
  const zip = await JSZip.loadAsync(bytes);
  const parts = await sheetParts(zip);
  const types = { xml: (await text(zip, '[Content_Types].xml')) ?? '' };
  const dropped: PlacedChart[] = [];
  for (const chart of charts) {
    const part = parts.get(chart.sheet);
    if (part) await addChart(zip, part, chart, types);
    else dropped.push(chart);
  }
  zip.file('[Content_Types].xml', types.xml);
  return { bytes: await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }), dropped };
}
