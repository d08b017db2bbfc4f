// Where paper_search's downloads go and how their text is read. The reference wrote to
// `save_path` (default "./downloads") relative to wherever it ran; here that folder is mapped
// into the task's workspace (servers/shared/call-context.ts), an absolute path must lie inside
// the allowed roots (media/ and M3_ALLOWED_ROOTS), and nothing is written outside them: every
// form goes through the symlink-resolving resolveAllowedPath, and a relative one must still be
// inside the workspace after its links are followed. PDFs
// are size-capped, typed by their bytes, and read with pdfjs-dist (text per page, pages
// separated by newlines as the reference's PyPDF2 loop did).
import { existsSync, mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PathNotAllowedError, resolveAllowedPath } from '../shared/allowed-roots.js';
import { callContextOf, workspaceOf } from '../shared/call-context.js';
import { resolveOutputArgument } from '../shared/task-paths.js';
import { safeFileName, saveDownload } from '../shared/download.js';
import { fetchFrom, type Upstream } from './upstreams.js';

/** The largest PDF fetched; arXiv papers are rarely above 20 MB. */
export const maxPdfBytes = 50 * 1024 * 1024;

type Extra = { _meta?: unknown };

function isInside(child: string, root: string): boolean {
  const relative = path.relative(root, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** The folder `save_path` names for this call, created when missing. */
export function downloadFolder(savePath: string, extra: Extra): string {
  const workspace = workspaceOf(extra);
  let folder: string;
  if (callContextOf(extra)?.workspaceOnly) {
    // A workspace-only call (a demo session) writes nowhere else, whatever form the path has.
    folder = resolveOutputArgument(savePath, extra, resolveAllowedPath);
  } else if (path.isAbsolute(savePath) || savePath.startsWith('file://')) {
    folder = resolveAllowedPath(savePath);
  } else {
    // Resolved through symlinks (resolveAllowedPath) before the containment check: a planted
    // `downloads -> /elsewhere` link must not carry the download, or a mkdir, out of the workspace.
    const leaves = () => new Error(`save_path "${savePath}" leaves the task workspace; give a folder inside it such as ./downloads`);
    try {
      folder = resolveAllowedPath(path.resolve(workspace, savePath));
    } catch (error) {
      if (error instanceof PathNotAllowedError) throw leaves();
      throw error;
    }
    if (!isInside(folder, workspace)) throw leaves();
  }
  mkdirSync(folder, { recursive: true });
  return folder;
}

/** The file a paper is saved as: `<folder>/<safe name>.pdf`. */
export function pdfPath(folder: string, name: string): string {
  return path.join(folder, `${safeFileName(`${name}.pdf`).replace(/\.pdf$/, '')}.pdf`);
}

/** Downloads a PDF from `<base of upstream><urlPath>` into `file`; refuses anything that is not a PDF. */
export async function downloadPdf(upstream: Upstream, urlPath: string, file: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await fetchFrom<Buffer>(upstream, urlPath, 'bytes', { maxBytes: maxPdfBytes, headers });
  const saved = await saveDownload(path.dirname(file), path.basename(file), response.body, ['application/pdf']);
  return saved.file;
}

export function isPresent(file: string): boolean {
  return existsSync(file);
}

/** The text of each page of a PDF file. */
export async function pdfPageTexts(file: string): Promise<string[]> {
  const data = new Uint8Array(await readFile(file));
  // Loaded on first use: pdf.js is large, and most calls never read a PDF.
  const { getDocument, VerbosityLevel } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  let document: Awaited<ReturnType<typeof getDocument>['promise']>;
  try {
    document = await getDocument({ data, verbosity: VerbosityLevel.ERRORS, isEvalSupported: false, useSystemFonts: false }).promise;
  } catch (error) {
    throw new Error(`cannot read ${path.basename(file)} as a PDF: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    const pages: string[] = [];
    for (let number = 1; number <= document.numPages; number += 1) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        text += item.str;
        if (item.hasEOL) text += '\n';
      }
      pages.push(text);
    }
    return pages;
  } finally {
    await document.destroy();
  }
}

/** The reference's arXiv/bioRxiv reading: every page's text plus "\n", stripped. */
export async function pdfText(file: string): Promise<string> {
  return (await pdfPageTexts(file))
    .map((page) => `${page}\n`)
    .join('')
    .trim();
}
