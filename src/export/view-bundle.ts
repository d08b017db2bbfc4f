// `m3 view --export <run-id> <file>`: one run as a self-contained viewer page that opens from
// file:// with no server. The viewer's own API functions (src/view) answer every route the pages
// ask for this run (the runs page with this run, its task table, each task of each trial with
// its transcript and alignment), in process; their answers and every tool image (a data: URL,
// optionally downscaled) are embedded in the page, whose fetch helper reads them instead of the
// network (src/view/public/view-kit.js). The page is assembled in bundle-html.ts.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { fromRepo, repoRoot } from '../config/paths.js';
import { ConfigError, StoreError } from '../errors/index.js';
import { episodesForRun, openStore, type Store } from '../store/index.js';
import { latestEpisodes, runHeadline, runIntervalsPage, runPage, runsPage, type ViewSources } from '../view/pages.js';
import { indexedRows } from '../view/task-index.js';
import { taskPage } from '../view/task-page.js';
import { imageTypes, insideRoots, toolImagePaths } from '../view/tool-images.js';
import { buildBundleHtml, type BundleData } from './bundle-html.js';
import { requireRun } from './run-records.js';

export interface ViewBundleRequest {
  storeFile: string;
  resultsDir: string;
  runId: string;
  /** A .html file, or a folder that gets index.html. */
  target: string;
  /** Longest image edge in the bundle (images are downscaled to it, never enlarged). */
  maxImagePx?: number;
  /** Folders tool images may be read from; default <repo>/media and the results folder (as `m3 view`). */
  imageRoots?: string[];
}

export interface ViewBundleSummary {
  file: string;
  bytes: number;
  tasks: number;
  /** Tool and task images inlined. */
  images: number;
  imageBytes: number;
  missingImages: number;
}

const enc = encodeURIComponent;

/** The task images a task page lists (`taskImages`: source and delivery status of each), if it lists them. */
function taskImagesOf(page: object): Array<{ source?: string; status?: string }> {
  const listed = (page as { taskImages?: unknown }).taskImages;
  return Array.isArray(listed) ? (listed as Array<{ source?: string; status?: string }>) : [];
}

async function imageDataUrl(file: string, maxImagePx: number | undefined): Promise<{ url: string; bytes: number }> {
  let body: Buffer = readFileSync(file);
  let type = imageTypes[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
  if (maxImagePx) {
    const image = sharp(body);
    const { width = 0, height = 0, format } = await image.metadata();
    if (Math.max(width, height) > maxImagePx) {
      // BMP and GIF are written back as PNG: sharp encodes neither.
      const keep = format === 'jpeg' || format === 'webp' || format === 'png';
      body = await image
        .resize({ width: maxImagePx, height: maxImagePx, fit: 'inside', withoutEnlargement: true })
        .toFormat(keep ? format : 'png')
        .toBuffer();
      type = keep ? `image/${format}` : 'image/png';
    }
  }
  return { url: `data:${type};base64,${body.toString('base64')}`, bytes: body.length };
}

/** Every API answer the pages of this run ask for, and the tool images they show. */
async function collectBundle(
  store: Store,
  request: ViewBundleRequest,
): Promise<{ data: BundleData; tasks: number; imageBytes: number; missingImages: number }> {
  const sources: ViewSources = { store, resultsDir: path.resolve(request.resultsDir) };
  const run = requireRun(store, request.runId);
  const roots = request.imageRoots ?? [fromRepo('media'), sources.resultsDir];
  const runs = runsPage(sources);
  const api: Record<string, unknown> = {
    '/api/runs': { ...runs, runs: runs.runs.filter((entry) => entry.runId === run.runId) },
    '/api/runs-stamp': { stamp: runs.stamp },
    [`/api/runs/${enc(run.runId)}`]: runPage(sources, run.runId),
    [`/api/runs/${enc(run.runId)}/intervals`]: runIntervalsPage(sources, run.runId),
  };
  const taskTable = { run: runHeadline(sources, run, false), rows: indexedRows(sources, run) };
  const images: Record<string, string> = {};
  let imageBytes = 0;
  let missingImages = 0;
  const inline = async (route: string, file: string | undefined) => {
    const real = file ? insideRoots(file, roots, repoRoot) : undefined;
    if (!real) {
      missingImages += 1;
      return;
    }
    const image = await imageDataUrl(real, request.maxImagePx);
    images[route] = image.url;
    imageBytes += image.bytes;
  };
  const episodes = latestEpisodes(episodesForRun(store, run.runId));
  for (const episode of episodes) {
    const page = taskPage(sources, run.runId, episode.taskId, episode.trial);
    const route = `/api/runs/${enc(run.runId)}/tasks/${enc(episode.taskId)}`;
    api[`${route}?trial=${episode.trial}`] = page;
    if (episode.trial === 1) api[route] = page;
    for (const call of page.toolCalls)
      for (const [n, file] of toolImagePaths(call.resultText, call.images.length).entries()) await inline(`/api/tool-calls/${call.id}/images/${n}`, file);
    // The task images as sent, where the task page lists them (the route the page shows them by).
    for (const [n, image] of taskImagesOf(page).entries())
      if (image.status === 'sent') await inline(`${route}/images/${n}?trial=${episode.trial}`, image.source);
  }
  return { data: { runId: run.runId, api, images, taskTable }, tasks: episodes.length, imageBytes, missingImages };
}

function targetFile(target: string): string {
  const resolved = path.resolve(target);
  if (/\.html?$/i.test(resolved)) {
    mkdirSync(path.dirname(resolved), { recursive: true });
    return resolved;
  }
  try {
    if (!statSync(resolved).isDirectory()) throw new ConfigError(`m3 view --export: ${target} is a file without .html; name a .html file or a folder`);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    mkdirSync(resolved, { recursive: true });
  }
  return path.join(resolved, 'index.html');
}

/** Writes the bundle of one run; returns where, how big, and what it holds. */
export async function writeViewBundle(request: ViewBundleRequest): Promise<ViewBundleSummary> {
  if (request.maxImagePx !== undefined && (!Number.isInteger(request.maxImagePx) || request.maxImagePx < 16))
    throw new ConfigError(`m3 view --export: --max-image-px must be a whole number of at least 16, got ${request.maxImagePx}`);
  const storeFile = path.resolve(request.storeFile);
  if (!existsSync(storeFile)) throw new StoreError(`no run store at ${storeFile}; pass --store <file> (m3 run writes <results-dir>/m3bench.sqlite)`);
  const store = openStore(storeFile, { readonly: true });
  let collected: Awaited<ReturnType<typeof collectBundle>>;
  try {
    collected = await collectBundle(store, request);
  } finally {
    store.close();
  }
  const file = targetFile(request.target);
  const html = await buildBundleHtml(collected.data);
  writeFileSync(file, html);
  return {
    file,
    bytes: Buffer.byteLength(html),
    tasks: collected.tasks,
    images: Object.keys(collected.data.images).length,
    imageBytes: collected.imageBytes,
    missingImages: collected.missingImages,
  };
}
