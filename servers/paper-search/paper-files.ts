// download_* and read_* of IACR and Semantic Scholar: both look the paper up first for its PDF
// URL, save `<prefix>_<id>.pdf`, and read it as "--- Page N ---" sections under a metadata
// header (title, authors, date as Python prints a datetime, URL, where the PDF went).
import path from 'node:path';
import { saveDownload } from '../shared/download.js';
import { ReferenceRefusal } from './fastmcp-result.js';
import { iacrDetails, iacrFileName } from './iacr.js';
import type { Paper } from './paper.js';
import { downloadPdf, maxPdfBytes, pdfPageTexts, pdfPath } from './pdf-files.js';
import { semanticDetails, semanticFileName } from './semantic.js';
import { fetchFrom, fetchNamed, pathPart } from './upstreams.js';

export async function downloadIacr(paperId: string, folder: string): Promise<string> {
  const file = pdfPath(folder, iacrFileName(paperId));
  const response = await fetchFrom<Buffer>('iacr', `/${pathPart(paperId)}.pdf`, 'bytes', { maxBytes: maxPdfBytes, acceptStatus: [400, 404, 410] });
  if (response.status !== 200) throw new ReferenceRefusal(`Failed to download PDF: HTTP ${response.status}`);
  return (await saveDownload(path.dirname(file), path.basename(file), response.body, ['application/pdf'])).file;
}

async function savePaperPdf(paper: Paper, file: string): Promise<string> {
  if (paper.source === 'iacr') return downloadPdf('iacr', new URL(paper.pdf_url).pathname, file);
  const response = await fetchNamed(paper.pdf_url, 'semantic', { maxBytes: maxPdfBytes });
  return (await saveDownload(path.dirname(file), path.basename(file), response.body, ['application/pdf'])).file;
}

async function lookUp(source: 'iacr' | 'semantic', paperId: string): Promise<Paper> {
  const paper = source === 'iacr' ? await iacrDetails(paperId) : await semanticDetails(paperId);
  if (!paper?.pdf_url) throw new ReferenceRefusal(`Error: Could not find PDF URL for paper ${paperId}`);
  return paper;
}

export async function downloadSemantic(paperId: string, folder: string): Promise<string> {
  const paper = await lookUp('semantic', paperId);
  return savePaperPdf(paper, pdfPath(folder, semanticFileName(paperId)));
}

/** read_iacr_paper / read_semantic_paper: the PDF text under the reference's metadata header. */
export async function readWithMetadata(source: 'iacr' | 'semantic', paperId: string, folder: string): Promise<string> {
  const paper = await lookUp(source, paperId);
  const file = await savePaperPdf(paper, pdfPath(folder, source === 'iacr' ? iacrFileName(paperId) : semanticFileName(paperId)));
  const pages = await pdfPageTexts(file);
  const text = pages.map((page, index) => (page ? `\n--- Page ${index + 1} ---\n${page}\n` : '')).join('');
  if (!text.trim()) return `PDF downloaded to ${file}, but unable to extract readable text`;
  const header = [
    `Title: ${String(paper.title)}`,
    `Authors: ${paper.authors.map(String).join(', ')}`,
    `Published Date: ${paper.published_date ? paper.published_date.toString() : 'None'}`,
    `URL: ${String(paper.url)}`,
    `PDF downloaded to: ${file}`,
    '='.repeat(80),
  ].join('\n');
  return `${header}\n\n${text.trim()}`;
}
