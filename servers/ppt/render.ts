// Renders the in-memory model into a .pptx with pptxgenjs. Gradient backgrounds have no
// pptxgenjs equivalent, so they are drawn with sharp as a full-slide PNG background.
import JSZip from 'jszip';
import pptxgenModule from 'pptxgenjs';
import sharp from 'sharp';
import { type Background, type Presentation, type SlideElement, slideHeight, slideWidth, type TextElement } from './model.js';

// pptxgenjs ships CommonJS-style typings with an ESM build: TypeScript sees the class under
// `.default`, while Node's ESM loader hands over the class itself. Accept both shapes.
type PptxClass = typeof pptxgenModule.default;
const PptxGenJS: PptxClass = (pptxgenModule as unknown as { default?: PptxClass }).default ?? (pptxgenModule as unknown as PptxClass);
type Pptx = InstanceType<PptxClass>;
type PptSlide = ReturnType<Pptx['addSlide']>;

const gradientPixelsPerInch = 96;

async function gradientPng(background: Extract<Background, { type: 'gradient' }>): Promise<Buffer> {
  const width = Math.round(slideWidth * gradientPixelsPerInch);
  const height = Math.round(slideHeight * gradientPixelsPerInch);
  const end = { horizontal: 'x2="1" y2="0"', vertical: 'x2="0" y2="1"', diagonal: 'x2="1" y2="1"' }[background.direction];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g" x1="0" y1="0" ${end}><stop offset="0" stop-color="#${background.colors[0]}"/><stop offset="1" stop-color="#${background.colors[1]}"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function applyBackground(slide: PptSlide, background: Background | undefined): Promise<void> {
  if (!background) return;
  if (background.type === 'solid') {
    slide.background = { color: background.color };
    return;
  }
  slide.background = { data: `image/png;base64,${(await gradientPng(background)).toString('base64')}` };
}

function addText(slide: PptSlide, element: TextElement): void {
  const { style, box } = element;
  // Split runs at newlines ourselves: pptxgenjs would end the paragraph after the last line
  // of a multi-line run too, pushing the next run onto a new line.
  const pieces = element.runs.flatMap((run) =>
    run.text.split(/\r?\n/).map((line, index, lines) => ({ run, line, breakLine: index < lines.length - 1 })),
  );
  const runs = pieces.map(({ run, line, breakLine }) => ({
    text: line,
    options: {
      breakLine,
      ...(run.bold !== undefined ? { bold: run.bold } : {}),
      ...(run.italic !== undefined ? { italic: run.italic } : {}),
      ...(run.underline ? { underline: { style: 'sng' as const } } : {}),
      ...(run.fontSize ? { fontSize: run.fontSize } : {}),
      ...(run.fontName ? { fontFace: run.fontName } : {}),
      ...(run.color ? { color: run.color } : {}),
    },
  }));
  slide.addText(runs, {
    x: box.left,
    y: box.top,
    w: box.width,
    h: box.height,
    fontSize: style.fontSize ?? 18,
    fontFace: style.fontName ?? 'Calibri',
    color: style.color ?? '000000',
    bold: style.bold ?? false,
    italic: style.italic ?? false,
    ...(style.underline ? { underline: { style: 'sng' as const } } : {}),
    align: style.align ?? 'left',
    valign: style.valign ?? 'top',
    ...(style.bgColor ? { fill: { color: style.bgColor } } : {}),
    // The server already picked a size that should fit; shrink-on-overflow covers estimate error.
    fit: style.autoFit ? 'shrink' : 'none',
    isTextBox: true,
    wrap: true,
    objectName: element.role === 'title' ? 'Title' : undefined,
  });
}

function addElement(pptx: Pptx, slide: PptSlide, element: SlideElement): void {
  const position = { x: element.box.left, y: element.box.top, w: element.box.width, h: element.box.height };
  switch (element.kind) {
    case 'text':
      addText(slide, element);
      return;
    case 'image':
      slide.addImage({ ...position, data: `${element.mediaType};base64,${element.data.toString('base64')}` });
      return;
    case 'shape':
      slide.addShape(pptx.ShapeType.rect, { ...position, fill: { color: element.fill }, line: { color: element.fill } });
      return;
    case 'chart': {
      const data = element.series.map((series) => ({ name: series.name, labels: element.categories, values: series.values }));
      slide.addChart(pptx.ChartType[element.chartType], data, {
        ...position,
        showLegend: element.series.length > 1 || element.chartType === 'pie' || element.chartType === 'doughnut',
        ...(element.title ? { showTitle: true, title: element.title } : {}),
      });
    }
  }
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[char] ?? char);
}

/** pptxgenjs writes no keywords/description; add them to docProps/core.xml afterwards. */
async function addCoreExtras(pptxBytes: Buffer, keywords: string | undefined, comments: string | undefined): Promise<Buffer> {
  if (!keywords && !comments) return pptxBytes;
  const zip = await JSZip.loadAsync(pptxBytes);
  const core = zip.file('docProps/core.xml');
  if (!core) return pptxBytes;
  const extras = [keywords ? `<cp:keywords>${escapeXml(keywords)}</cp:keywords>` : '', comments ? `<dc:description>${escapeXml(comments)}</dc:description>` : ''].join('');
  zip.file('docProps/core.xml', (await core.async('string')).replace('</cp:coreProperties>', `${extras}</cp:coreProperties>`));
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

export async function renderPresentation(presentation: Presentation): Promise<Buffer> {
  const pptx = new PptxGenJS();
  pptx.layout = 'LAYOUT_WIDE';
  const { title, subject, author, keywords, comments } = presentation.properties;
  pptx.title = title ?? presentation.id;
  pptx.subject = subject ?? '';
  if (author) pptx.author = author;
  for (const model of presentation.slides) {
    const slide = pptx.addSlide();
    await applyBackground(slide, model.background);
    for (const element of model.elements) addElement(pptx, slide, element);
  }
  const output = await pptx.write({ outputType: 'nodebuffer' });
  return addCoreExtras(Buffer.isBuffer(output) ? output : Buffer.from(output as ArrayBuffer), keywords, comments);
}
