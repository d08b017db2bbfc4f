// Renders a FigureSpec with chart.js 4 on @napi-rs/canvas: PNG from a raster canvas, SVG from
// the canvas's SVG mode and PDF from its PDFDocument (Skia's PDF backend; both vector, text stays
// text, so labels are searchable). This is the only module that loads the native canvas; chart
// construction stays pure in chart-configs.ts.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createCanvas, PDFDocument, SvgExportFlag } from '@napi-rs/canvas';
import { Chart, registerables, type Plugin } from 'chart.js';
import type { FigureSpec, ValueLabelOptions } from './chart-configs.js';

const canvasBackground: Plugin = {
  id: 'canvasBackground',
  beforeDraw(chart, _args, options: { color?: string }) {
    if (!options.color) return;
    const { ctx } = chart;
    ctx.save();
    ctx.fillStyle = options.color;
    ctx.fillRect(0, 0, chart.width, chart.height);
    ctx.restore();
  },
};

/** Prints each bar's value at its end (outside, or inside when there is no room). */
const valueLabels: Plugin = {
  id: 'valueLabels',
  afterDatasetsDraw(chart, _args, options: Partial<ValueLabelOptions>) {
    if (options.decimals === undefined) return;
    const decimals = options.decimals;
    const { ctx, chartArea } = chart;
    const horizontal = chart.options.indexAxis === 'y';
    ctx.save();
    ctx.font = 'bold 12px sans-serif';
    ctx.fillStyle = '#222222';
    chart.data.datasets.forEach((dataset, datasetIndex) => {
      const meta = chart.getDatasetMeta(datasetIndex);
      if (meta.hidden || meta.type !== 'bar') return;
      meta.data.forEach((element, index) => {
        const value = dataset.data[index];
        if (typeof value !== 'number' || !Number.isFinite(value) || value < (options.minValue ?? -Infinity)) return;
        const text = `${value.toFixed(decimals)}${options.suffix ?? ''}`;
        const width = ctx.measureText(text).width;
        const { x, y } = element.getProps(['x', 'y'], true) as { x: number; y: number };
        if (horizontal) {
          const inside = x + 6 + width > chartArea.right;
          ctx.textAlign = inside ? 'right' : 'left';
          ctx.textBaseline = 'middle';
          ctx.fillText(text, inside ? x - 6 : x + 6, y);
        } else {
          ctx.textAlign = 'center';
          ctx.textBaseline = 'bottom';
          ctx.fillText(text, x, Math.max(chartArea.top + 12, y - 4));
        }
      });
    });
    ctx.restore();
  },
};

let registered = false;
function ensureRegistered(): void {
  if (registered) return;
  Chart.register(...registerables, canvasBackground, valueLabels);
  Chart.defaults.font.family = 'sans-serif';
  registered = true;
}

/** Draws the chart, lets `read` take the output, then frees the chart (which clears the canvas). */
async function drawAndRead<T>(spec: FigureSpec, canvas: object, read: () => T | Promise<T>): Promise<T> {
  ensureRegistered();
  // chart.js mutates the configuration it is given; each render gets its own copy.
  const config = structuredClone(spec.config);
  const chart = new Chart(canvas as never, config as never);
  try {
    chart.draw();
    return await read();
  } finally {
    chart.destroy();
  }
}

export async function renderPng(spec: FigureSpec): Promise<Buffer> {
  const canvas = createCanvas(spec.width, spec.height);
  return drawAndRead(spec, canvas, () => canvas.encode('png'));
}

export async function renderSvg(spec: FigureSpec): Promise<string> {
  const canvas = createCanvas(spec.width, spec.height, SvgExportFlag.NoPrettyXML);
  return drawAndRead(spec, canvas, () => canvas.getContent().toString('utf8'));
}

/**
 * One PDF with a page per figure, each page the figure's size. A PDF page's context has no
 * canvas of its own, and chart.js reads `context.canvas`, so the page gets a stand-in canvas
 * with the page's size. The chart draws once, on construction (animation is off): a second
 * draw would lay its text over the first, since a PDF page cannot be cleared. For the same
 * reason clearRect is a no-op on the page (it starts empty; the background plugin paints white),
 * so chart.js clearing the canvas on destroy cannot blank the page.
 */
export function renderPdf(specs: readonly FigureSpec[], title: string): Buffer {
  ensureRegistered();
  const document = new PDFDocument({ title, creator: 'm3bench m3 report' });
  for (const spec of specs) {
    const context = document.beginPage(spec.width, spec.height);
    const canvas = { width: spec.width, height: spec.height, style: {}, getContext: () => context };
    Object.defineProperty(context, 'canvas', { value: canvas, configurable: true });
    Object.defineProperty(context, 'clearRect', { value: () => undefined, configurable: true });
    const chart = new Chart(context as never, structuredClone(spec.config) as never);
    chart.destroy();
    document.endPage();
  }
  return document.close();
}

export interface RenderedFigure {
  spec: FigureSpec;
  png: string;
  svg: string;
  pdf: string;
}

/** Writes `<dir>/<name>.png`, `<dir>/<name>.svg` and `<dir>/<name>.pdf`. */
export async function writeFigure(spec: FigureSpec, dir: string): Promise<RenderedFigure> {
  const png = path.join(dir, `${spec.name}.png`);
  const svg = path.join(dir, `${spec.name}.svg`);
  const pdf = path.join(dir, `${spec.name}.pdf`);
  writeFileSync(png, await renderPng(spec));
  writeFileSync(svg, await renderSvg(spec), 'utf8');
  writeFileSync(pdf, renderPdf([spec], spec.title));
  return { spec, png, svg, pdf };
}
