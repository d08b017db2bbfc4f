// One self-contained `report.html`: tables inline, PNG figures embedded as data URIs, and
// relative links to the SVG / CSV / Markdown files next to it, so it opens from disk anywhere.
import path from 'node:path';
import { formatCell, type Table } from './tables.js';

interface HtmlFigure {
  title: string;
  pngBase64: string;
  /** File name of the SVG, relative to the HTML file. */
  svgFile: string;
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
  const body = table.rows
    .map(
      (row) =>
        `<tr>${row.map((cell, index) => `<td${index > 0 && typeof cell === 'number' ? ' class="num"' : ''}>${escapeHtml(formatCell(cell))}</td>`).join('')}</tr>`,
    )
    .join('\n');
  const note = table.note ? `<p class="note">${escapeHtml(table.note)}</p>` : '';
  return `<h3 id="${escapeHtml(table.id)}">${escapeHtml(table.title)}</h3>\n<table>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>\n${note}`;
}

function figureHtml(figure: HtmlFigure): string {
  const svg = encodeURI(figure.svgFile.split(path.sep).join('/'));
  return `<figure><img alt="${escapeHtml(figure.title)}" src="data:image/png;base64,${figure.pngBase64}"><figcaption>${escapeHtml(figure.title)} · <a href="${escapeHtml(svg)}">SVG</a></figcaption></figure>`;
}

const style = `
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 1280px; color: #222; padding: 0 1rem; }
table { border-collapse: collapse; margin: 0.5rem 0 1rem; font-size: 0.9rem; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.6rem; }
th { background: #f3f5f7; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
figure { margin: 1rem 0; }
figure img { max-width: 100%; border: 1px solid #eee; }
.grid { display: flex; flex-wrap: wrap; gap: 1rem; }
.grid figure { flex: 0 1 560px; }
.note { color: #555; font-size: 0.85rem; }
`;

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
<title>${escapeHtml(report.title)}</title>
<style>${style}</style>
</head>
<body>
<h1>${escapeHtml(report.title)}</h1>
<p class="note">Generated ${escapeHtml(report.generatedAt)} by m3 report.</p>
${missing}
${downloads ? `<h2>Files</h2><ul>${downloads}</ul>` : ''}
${sections}
</body>
</html>
`;
}
