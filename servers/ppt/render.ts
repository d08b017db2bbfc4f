// Renders the in-memory model into a .pptx with pptxgenjs. Gradient backgrounds have no
// pptxgenjs equivalent, so they are drawn with sharp as a full-slide PNG background.
import JSZip from 'jszip';
import pptxgenModule from 'pptxgenjs';
import sharp from 'sharp';
import { type Background, type Presentation, type SlideElement, slideHeight, slideWidth, type TextElement } from './model.js';
import { addPictureEffects } from './picture-effects.js';

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
  const pieces = element.runs.flatMap((run) => run.text.split(/\r?\n/).map((line, index, lines) => ({ run, line, breakLine: index < lines.length - 1 })));
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
      ...(run.hyperlink ? { hyperlink: { url: run.hyperlink } } : {}),
      ...(style.bullets ? { bullet: true } : {}),
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
    objectName: element.role === 'title' ? 'Title' : element.role === 'subtitle' ? 'Subtitle' : undefined,
  });
}

function addElement(pptx: Pptx, slide: PptSlide, element: SlideElement): void {
  const position = { x: element.box.left, y: element.box.top, w: element.box.width, h: element.box.height };
  switch (element.kind) {
    case 'text':
      addText(slide, element);
      return;
    case 'image':
      slide.addImage({
        ...position,
        data: `${element.mediaType};base64,${element.data.toString('base64')}`,
        ...(element.effects?.rotation ? { rotate: element.effects.rotation } : {}),
        ...(element.effects?.transparency ? { transparency: Math.round(element.effects.transparency * 100) } : {}),
      });
      return;
    case 'shape':
      addShape(pptx, slide, element, position);
      return;
    case 'line':
      slide.addShape(pptx.ShapeType.line, {
        ...position,
        flipH: element.flipH,
        flipV: element.flipV,
        line: { color: element.color, width: element.width, ...(element.connectorType === 'arrow' ? { endArrowType: 'triangle' as const } : {}) },
      });
      return;
    case 'table':
      addTable(slide, element);
      return;
    case 'chart': {
      const data = element.series.map((series) => ({ name: series.name, labels: element.categories, values: series.values }));
      slide.addChart(pptx.ChartType[element.chartType], data, {
        ...position,
        showLegend: element.showLegend ?? (element.series.length > 1 || element.chartType === 'pie' || element.chartType === 'doughnut'),
        ...(element.legendPosition ? { legendPos: element.legendPosition } : {}),
        ...(element.dataLabels ? { showValue: true } : {}),
        ...(element.title ? { showTitle: true, title: element.title } : {}),
        ...(element.xAxisTitle ? { showCatAxisTitle: true, catAxisTitle: element.xAxisTitle } : {}),
        ...(element.yAxisTitle ? { showValAxisTitle: true, valAxisTitle: element.yAxisTitle } : {}),
        ...(element.colors ? { chartColors: element.colors } : {}),
      });
    }
  }
}

type Position = { x: number; y: number; w: number; h: number };

function addShape(pptx: Pptx, slide: PptSlide, element: Extract<SlideElement, { kind: 'shape' }>, position: Position): void {
  const type = (element.shapeType ?? 'rect') as keyof typeof pptx.ShapeType;
  const options = {
    ...position,
    fill: { color: element.fill },
    line: { color: element.line ?? element.fill, ...(element.lineWidth ? { width: element.lineWidth } : {}) },
  };
  if (element.text) {
    slide.addText(element.text, {
      ...options,
      shape: pptx.ShapeType[type],
      fontSize: element.fontSize ?? 18,
      color: element.fontColor ?? 'FFFFFF',
      align: 'center',
      valign: 'middle',
    });
    return;
  }
  slide.addShape(pptx.ShapeType[type], options);
}

function addTable(slide: PptSlide, element: Extract<SlideElement, { kind: 'table' }>): void {
  const rows = element.cells.map((row, rowIndex) =>
    row.map((text, columnIndex) => {
      const header = element.headerRow && rowIndex === 0;
      const custom = element.cellStyles[`${rowIndex},${columnIndex}`] ?? {};
      const fill = custom.fill ?? (header ? element.headerFill : element.bodyFill);
      return {
        text,
        options: {
          fontSize: custom.fontSize ?? (header ? element.headerFontSize : element.bodyFontSize),
          bold: custom.bold ?? header,
          ...(custom.italic !== undefined ? { italic: custom.italic } : {}),
          ...(custom.fontName ? { fontFace: custom.fontName } : {}),
          ...(custom.color ? { color: custom.color } : {}),
          ...(fill ? { fill: { color: fill } } : {}),
          ...(custom.align ? { align: custom.align } : {}),
          ...(custom.valign ? { valign: custom.valign } : {}),
        },
      };
    }),
  );
  slide.addTable(rows, {
    x: element.box.left,
    y: element.box.top,
    w: element.box.width,
    h: element.box.height,
    ...(element.border ? { border: { type: 'solid', pt: 1, color: element.border } } : {}),
  });
}

/** pptxgenjs writes no slide transitions: add <p:transition> to the slides that have one. */
async function addTransitions(zip: JSZip, presentation: Presentation): Promise<void> {
  for (const [index, slide] of presentation.slides.entries()) {
    if (!slide.transition) continue;
    const name = `ppt/slides/slide${index + 1}.xml`;
    const xml = await zip.file(name)?.async('string');
    if (!xml) continue;
    const element = `<p:transition spd="${slide.transition.durationSec <= 0.5 ? 'fast' : slide.transition.durationSec <= 1 ? 'med' : 'slow'}" p14:dur="${Math.round(slide.transition.durationSec * 1000)}" xmlns:p14="http://schemas.microsoft.com/office/powerpoint/2010/main"><p:${slide.transition.type}/></p:transition>`;
    // Schema order: cSld, clrMapOvr, transition.
    const anchor = xml.includes('</p:clrMapOvr>') ? '</p:clrMapOvr>' : '</p:cSld>';
    zip.file(name, xml.replace(anchor, `${anchor}${element}`));
  }
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[char] ?? char);
}

/** pptxgenjs writes no keywords/description (nor transitions): add them to the package afterwards. */
async function addPackageExtras(pptxBytes: Buffer, presentation: Presentation): Promise<Buffer> {
  const { keywords, comments } = presentation.properties;
  const effects = presentation.slides.some((slide) => slide.elements.some((element) => element.kind === 'image' && element.effects));
  if (!keywords && !comments && !effects && !presentation.slides.some((slide) => slide.transition)) return pptxBytes;
  const zip = await JSZip.loadAsync(pptxBytes);
  const core = zip.file('docProps/core.xml');
  if (core && (keywords || comments)) {
    const extras = [
      keywords ? `<cp:keywords>${escapeXml(keywords)}</cp:keywords>` : '',
      comments ? `<dc:description>${escapeXml(comments)}</dc:description>` : '',
    ].join('');
    zip.file('docProps/core.xml', (await core.async('string')).replace('</cp:coreProperties>', `${extras}</cp:coreProperties>`));
  }
  await addTransitions(zip, presentation);
  await addPictureEffects(zip, presentation);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

export async function renderPresentation(presentation: Presentation): Promise<Buffer> {
  const pptx = new PptxGenJS();
  pptx.layout = 'LAYOUT_WIDE';
  const { title, subject, author } = presentation.properties;
  pptx.title = title ?? presentation.id;
  pptx.subject = subject ?? '';
  if (author) pptx.author = author;
  for (const model of presentation.slides) {
    const slide = pptx.addSlide();
    await applyBackground(slide, model.background);
    for (const element of model.elements) addElement(pptx, slide, element);
  }
  const output = await pptx.write({ outputType: 'nodebuffer' });
  return addPackageExtras(Buffer.isBuffer(output) ? output : Buffer.from(output as ArrayBuffer), presentation);
}
