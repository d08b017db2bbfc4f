// One self-contained `report.html`: tables inline, PNG figures embedded as data URIs, and
// relative links to the SVG / PDF / CSV / Markdown files next to it, so it opens from disk
// anywhere. It fits a 1280 px window and reads on a phone: wide tables scroll inside their box,
// figures shrink to the page.
import path from 'node:path';
import { type Cell, formatCell, type Table } from './tables.js';

interface HtmlFigure {
  title: string;
  pngBase64: string;
  /** File names of the SVG and PDF, relative to the HTML file. */
  svgFile: string;
  pdfFile: string;
}

export interface HtmlSection {
  title: string;
  tables: Table[];
  figures: HtmlFigure[];
  /** Figures laid out side by side (the per-model donuts). */
  grid?: boolean;
  notes?: string[];
}

export interface HtmlReport {
  title: string;
  generatedAt: string;
  /** Paragraphs under the title: what was run, who the synthetic agents are, where per-task detail is. */
  intro: Array<{ text: string; code?: string }>;
  sections: HtmlSection[];
  /** Side files (CSV, Markdown) to link, relative to the HTML file. */
  downloads: string[];
  missingModels: string[];
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

function tableHtml(table: Table): string {
  const head = table.header.map((cell) => `<th>${escapeHtml(cell)}</th>`).join('');
  const cellHtml = (cell: Cell, index: number) => {
    const text = escapeHtml(formatCell(cell));
    const link = table.link?.column === index ? `<a href="${escapeHtml(table.link.prefix + encodeURIComponent(formatCell(cell)))}">${text}</a>` : text;
    return `<td${index > 0 && typeof cell === 'number' ? ' class="num"' : ''}>${link}</td>`;
  };
  const body = table.rows.map((row) => `<tr>${row.map(cellHtml).join('')}</tr>`).join('\n');
  const note = table.note ? `<p class="note">${escapeHtml(table.note)}</p>` : '';
  return `<h3 id="${escapeHtml(table.id)}">${escapeHtml(table.title)}</h3>\n<div class="table-wrap">\n<table>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>\n</div>\n${note}`;
}

function figureHtml(figure: HtmlFigure): string {
  const link = (file: string) => escapeHtml(encodeURI(file.split(path.sep).join('/')));
  return `<figure><img alt="${escapeHtml(figure.title)}" src="data:image/png;base64,${figure.pngBase64}"><figcaption>${escapeHtml(figure.title)} · <a href="${link(figure.svgFile)}">SVG</a> · <a href="${link(figure.pdfFile)}">PDF</a></figcaption></figure>`;
}

const style = `
*, *::before, *::after { box-sizing: border-box; }
body { font-family: system-ui, sans-serif; margin: 1.5rem auto; max-width: 1280px; color: #222; padding: 0 1rem; line-height: 1.45; overflow-wrap: anywhere; }
h1 { font-size: 1.6rem; }
.table-wrap { max-width: 100%; overflow-x: auto; -webkit-overflow-scrolling: touch; margin: 0.5rem 0 1rem; }
table { border-collapse: collapse; font-size: 0.9rem; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.6rem; vertical-align: top; }
th { background: #f3f5f7; text-align: left; }
th, td { overflow-wrap: normal; word-break: normal; }
td { min-width: 4rem; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
figure { margin: 1rem 0; max-width: 100%; }
figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 420px), 1fr)); gap: 1rem; }
.note { color: #555; font-size: 0.85rem; }
.intro p { margin: 0.4rem 0; }
code { background: #f3f5f7; padding: 0 0.25rem; border-radius: 3px; }
@media (max-width: 600px) {
  body { margin: 0.75rem auto; padding: 0 0.6rem; }
  h1 { font-size: 1.3rem; }
  table { font-size: 0.8rem; }
  th, td { padding: 0.2rem 0.4rem; }
}
`;

function introHtml(intro: HtmlReport['intro']): string {
  if (intro.length === 0) return '';
  const paragraphs = intro.map((item) => `<p>${escapeHtml(item.text)}${item.code ? ` <code>${escapeHtml(item.code)}</code>` : ''}</p>`);
  return `<div class="intro">\n${paragraphs.join('\n')}\n</div>`;
}

export function renderHtml(report: HtmlReport): string {
  const sections = report.sections
    .map((section) => {
      const notes = (section.notes ?? []).map((note) => `<p class="note">${escapeHtml(note)}</p>`).join('\n');
      const figures = section.figures.map(figureHtml).join('\n');
      const figureBlock = section.grid ? `<div class="grid">${figures}</div>` : figures;
      return `<section>\n<h2>${escapeHtml(section.title)}</h2>\n${notes}\n${section.tables.map(tableHtml).join('\n')}\n${figureBlock}\n</section>`;
    })
    .join('\n');
  const downloads = report.downloads.map((file) => `<li><a href="${escapeHtml(encodeURI(file))}">${escapeHtml(file)}</a></li>`).join('');
  const missing = report.missingModels.length > 0 ? `<p class="note">Requested models without results: ${escapeHtml(report.missingModels.join(', '))}</p>` : '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(report.title)}</title>
<style>${style}</style>
</head>
<body>
<h1>${escapeHtml(report.title)}</h1>
<p class="note">Generated ${escapeHtml(report.generatedAt)} by m3 report.</p>
${introHtml(report.intro)}
${missing}
${downloads ? `<h2>Files</h2><ul>${downloads}</ul>` : ''}
${sections}
</body>
</html>
`;
}
