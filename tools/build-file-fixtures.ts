// Builds the fallback fixtures of the ground truth's file and image tools, with their generated
// assets (`npx tsx tools/build-file-fixtures.ts`; rerun after changing the servers' output code):
//   paper_search  search_arxiv, download_arxiv, read_arxiv_paper: Atom feeds in the arXiv API's
//                 shape (the recorded feed in test/servers/paper-search/fixtures) are served on
//                 127.0.0.1 and run through our server's own code (servers/paper-search/arxiv.ts:
//                 feed parser, PDF download, PDF reading), with stand-in PDFs built here;
//   google-maps   static_map, linkimage-mcp fetch_unsplash_image and google-air heatmap_tile: a
//                 labelled stand-in PNG and the text layout those servers print
//                 (servers/google-maps/image-tools.ts, servers/linkimage/tools.ts, servers/google-air/tools.ts).
// What the ground truth does not say (titles, authors, the rest of an abstract, the map, the
// photo) is never invented: it is marked "offline fixture" wherever it appears.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { downloadArxiv, readArxiv, searchArxiv } from '../servers/paper-search/arxiv.js';
import { listResult } from '../servers/paper-search/fastmcp-result.js';
import { pythonJsonDumps, toPythonJson } from '../servers/shared/python-format.js';
import { buildPdf } from './fixture-pdf.js';

const root = path.resolve(import.meta.dirname, '..');
const fixturesDir = path.join(root, 'tools', 'mock_runtime', 'fixtures');
const gtFile = path.join(root, '..', 'shared', 'data', 'm3bench', 'test_mcp_GT.json');
const label = 'OFFLINE FIXTURE';

interface GtCall {
  name: string;
  arguments: Record<string, unknown>;
}
interface GtTask {
  id: string;
  steps: Array<{ calls: GtCall[] }>;
  final_reply: string;
}

const gt = JSON.parse(readFileSync(gtFile, 'utf8')) as GtTask[];
const callsOf = (name: string) =>
  gt.flatMap((task) => task.steps.flatMap((step) => step.calls.filter((call) => call.name === name).map((call) => ({ task, call }))));
const unique = <T>(items: T[], key: (item: T) => string) => [...new Map(items.map((item) => [key(item), item])).values()];

/** The PDF's standard font writes Latin-1 only. */
const latin1 = (text: string) =>
  text
    .replace(/[—–]/g, '-')
    .replace(/α/g, 'alpha')
    .replace(/[^\x20-\xff]/g, '?');

/** Per arXiv id: the search query whose first result it was, and the abstract sentence the GT's final reply quotes. */
function arxivPapers(): Map<string, { query: string; sentence: string }> {
  const papers = new Map<string, { query: string; sentence: string }>();
  for (const task of gt.filter((entry) => entry.steps.some((step) => step.calls.some((call) => call.name === 'paper_search/download_arxiv')))) {
    const reply = JSON.parse(task.final_reply) as { detected_animals: string[]; selected_paper_id: unknown; extracted_sentence: unknown };
    const ids = typeof reply.selected_paper_id === 'string' ? [reply.selected_paper_id] : Object.values(reply.selected_paper_id as object);
    const sentences = typeof reply.extracted_sentence === 'string' ? [reply.extracted_sentence] : Object.values(reply.extracted_sentence as object);
    const keyed = !Array.isArray(reply.selected_paper_id) && typeof reply.selected_paper_id === 'object';
    ids.forEach((id, index) => {
      const animal = keyed ? (Object.keys(reply.selected_paper_id as object)[index] ?? '') : (reply.detected_animals[index] ?? '');
      if (!papers.has(String(id))) papers.set(String(id), { query: `ti:${animal} OR abs:${animal}`, sentence: String(sentences[index] ?? '') });
    });
  }
  return papers;
}

function atomEntry(id: string, sentence: string): string {
  const date = `20${id.slice(0, 2)}-${id.slice(2, 4)}-01T00:00:00Z`;
  const summary = `${label}: only the sentence below of this abstract is known (quoted in the ground truth's final reply). ${sentence}`.trim();
  return [
    '  <entry>',
    `    <id>http://arxiv.org/abs/${id}</id>`,
    `    <updated>${date}</updated>`,
    `    <published>${date}</published>`,
    `    <title>${label}: arXiv ${id} (title not recorded)</title>`,
    `    <summary>${summary.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</summary>`,
    `    <author><name>${label} (authors not recorded)</name></author>`,
    `    <link href="http://arxiv.org/abs/${id}" rel="alternate" type="text/html"/>`,
    `    <link title="pdf" href="http://arxiv.org/pdf/${id}" rel="related" type="application/pdf"/>`,
    '  </entry>',
  ].join('\n');
}

function atomFeed(query: string, entries: string[]): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <title type="html">ArXiv Query: search_query=${query.replace(/&/g, '&amp;')}</title>`,
    `  <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">${entries.length}</opensearch:totalResults>`,
    ...entries,
    '</feed>',
  ].join('\n');
}

/** Words wrapped into lines that fit the page. */
function wrap(text: string, width = 80): string[] {
  const lines: string[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + word.length < width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

function stemPdf(id: string, sentence: string): Buffer {
  const lines = [`${label} - a stand-in for arXiv ${id}, not the paper.`, '', 'Abstract', ...wrap(latin1(sentence)), ''];
  return buildPdf([[...lines, 'The rest of the paper was not recorded for offline runs.']]);
}

async function writeJson(server: string, tool: string, entries: unknown[]): Promise<void> {
  mkdirSync(path.join(fixturesDir, server), { recursive: true });
  writeFileSync(path.join(fixturesDir, server, `${tool}.json`), `${JSON.stringify(entries, null, 2)}\n`);
}

async function buildArxiv(): Promise<void> {
  const papers = arxivPapers();
  const assets = path.join(fixturesDir, 'paper_search', 'assets');
  mkdirSync(assets, { recursive: true });
  const pdfs = new Map([...papers].map(([id, paper]) => [id, stemPdf(id, paper.sentence)]));
  for (const [id, pdf] of pdfs) writeFileSync(path.join(assets, `${id}.pdf`), pdf);
  const upstream = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const pdf = /^\/pdf\/(.+)\.pdf$/.exec(url.pathname)?.[1];
    if (pdf && pdfs.has(pdf)) return response.writeHead(200, { 'content-type': 'application/pdf' }).end(pdfs.get(pdf));
    const query = url.searchParams.get('search_query') ?? '';
    const entries = [...papers].filter(([, paper]) => paper.query === query).map(([id, paper]) => atomEntry(id, paper.sentence));
    response.writeHead(200, { 'content-type': 'application/atom+xml' }).end(atomFeed(query, entries));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  Object.assign(process.env, { M3_UPSTREAM_ARXIV_API_URL: `${base}/api`, M3_UPSTREAM_ARXIV_URL: base, M3_NETWORK_GUARD: 'loopback' });
  const workspace = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'm3-file-fixtures-')));
  const source = (what: string) =>
    `${what} run through servers/paper-search/arxiv.ts by tools/build-file-fixtures.ts: an arXiv API Atom feed in the shape of the recorded answer in test/servers/paper-search/fixtures/arxiv-feed-math-ho.json, with the paper ids the ground truth downloads after this query and the abstract sentence its final reply quotes; title, authors and the rest of the abstract are marked offline fixture (dates: the first of the id's month)`;
  try {
    const searches = unique(callsOf('paper_search/search_arxiv'), ({ call }) => JSON.stringify(call.arguments));
    const search = [];
    for (const { call } of searches) {
      const items = await searchArxiv(String(call.arguments.query), Number(call.arguments.max_results ?? 10));
      const texts = listResult(items).content.map((part) => (part.type === 'text' ? part.text : ''));
      // A query the ground truth downloads nothing after has no known result: no fixture (the layer's template says so).
      if (texts.length > 0) search.push({ arguments: call.arguments, result: texts.join('\n'), source: source('search_arxiv') });
    }
    await writeJson('paper_search', 'search_arxiv', search);
    for (const tool of ['download_arxiv', 'read_arxiv_paper'] as const) {
      const entries = [];
      for (const { call } of unique(callsOf(`paper_search/${tool}`), ({ call }) => JSON.stringify(call.arguments))) {
        const id = String(call.arguments.paper_id);
        const folder = path.join(workspace, String(call.arguments.save_path ?? './downloads'));
        rmSync(folder, { recursive: true, force: true });
        mkdirSync(folder, { recursive: true });
        const saveAs = path.relative(workspace, path.join(folder, `${id}.pdf`));
        const text = tool === 'download_arxiv' ? await downloadArxiv(id, folder) : await readArxiv(id, folder);
        const result = text.replaceAll(path.join(workspace, saveAs), '{{saved_path}}');
        entries.push({ arguments: call.arguments, result, source: source(tool), asset: { file: `assets/${id}.pdf`, saveAs } });
      }
      await writeJson('paper_search', tool, entries);
    }
  } finally {
    upstream.close();
    rmSync(workspace, { recursive: true, force: true });
  }
}

/** A flat PNG that says what it is, in large type. */
async function standIn(lines: string[]): Promise<Buffer> {
  const text = lines
    .map(
      (line, index) =>
        `<text x="320" y="${250 + index * 44}" font-size="${index === 0 ? 40 : 24}" text-anchor="middle">${latin1(line).replace(/&/g, '&amp;').replace(/</g, '&lt;')}</text>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="640"><rect width="640" height="640" fill="#e8e8e8" stroke="#b00" stroke-width="16"/><g font-family="sans-serif" fill="#333">${text}</g></svg>`;
  return sharp(Buffer.from(svg)).png({ palette: true }).toBuffer();
}

async function buildImages(): Promise<void> {
  const maps = [];
  for (const { call } of unique(callsOf('google-maps/static_map'), ({ call }) => JSON.stringify(call.arguments))) {
    const args = call.arguments;
    // servers/google-maps/image-tools.ts: the public URL without the key, its sha1 in the file name.
    const url = new URL('https://maps.googleapis.com/maps/api/staticmap');
    for (const [name, value] of Object.entries({
      size: args.size ?? '640x640',
      scale: args.scale ?? 2,
      maptype: args.maptype ?? 'roadmap',
      center: args.center,
      zoom: args.zoom,
    })) {
      if (value !== undefined && value !== null) url.searchParams.append(name, String(value));
    }
    const stem = `static_map_${createHash('sha1').update(url.href).digest('hex').slice(0, 10)}`;
    const png = await standIn([label, 'not a map: no Static Maps image', `center ${String(args.center)}, zoom ${String(args.zoom)}`]);
    mkdirSync(path.join(fixturesDir, 'google-maps', 'assets'), { recursive: true });
    writeFileSync(path.join(fixturesDir, 'google-maps', 'assets', `${stem}.png`), png);
    const result = toPythonJson({ image_url: url.href, saved_path: '{{saved_path}}', mime_type: 'image/png', bytes: png.length });
    const source =
      'servers/google-maps/image-tools.ts layout (image_url without the key, saved_path, mime_type, bytes, then the image) built by tools/build-file-fixtures.ts; the image is a labelled stand-in, not a map';
    maps.push({ arguments: args, result, source, asset: { file: `assets/${stem}.png`, saveAs: `${stem}.png`, image: true } });
  }
  await writeJson('google-maps', 'static_map', maps);
  const photos = [];
  for (const { call } of unique(callsOf('linkimage-mcp/fetch_unsplash_image'), ({ call }) => JSON.stringify(call.arguments))) {
    const pageUrl = String(call.arguments.url);
    const id = pageUrl.replace(/\/+$/, '').slice(-11);
    const png = await standIn([label, 'not the Unsplash photo', `photo ${id}`]);
    mkdirSync(path.join(fixturesDir, 'linkimage-mcp', 'assets'), { recursive: true });
    writeFileSync(path.join(fixturesDir, 'linkimage-mcp', 'assets', `unsplash_${id}.png`), png);
    const result = pythonJsonDumps(
      {
        message: `Downloaded '${label} (author not recorded)' photo successfully.`,
        image_url: pageUrl,
        author: `${label} (author not recorded)`,
        saved_path: '{{saved_path}}',
      },
      { ensureAscii: false },
    );
    const source =
      "servers/linkimage/tools.ts layout (message, image_url, author, saved_path, then the image) built by tools/build-file-fixtures.ts; image_url is the GT's page URL, author unknown, the image a labelled stand-in";
    photos.push({ arguments: call.arguments, result, source, asset: { file: `assets/unsplash_${id}.png`, saveAs: `unsplash_${id}.png`, image: true } });
  }
  await writeJson('linkimage-mcp', 'fetch_unsplash_image', photos);
  const tiles = [];
  for (const { call } of unique(callsOf('google-air/heatmap_tile'), ({ call }) => JSON.stringify(call.arguments))) {
    const { z, x, y } = call.arguments;
    const indexType = String(call.arguments.indexType ?? 'UNIVERSAL_AQI');
    const stem = `heatmap_${indexType}_${String(z)}_${String(x)}_${String(y)}`;
    const png = await standIn([label, 'not an air-quality tile', `${indexType} z ${String(z)} x ${String(x)} y ${String(y)}`]);
    mkdirSync(path.join(fixturesDir, 'google-air', 'assets'), { recursive: true });
    writeFileSync(path.join(fixturesDir, 'google-air', 'assets', `${stem}.png`), png);
    const endpoint = `https://airquality.googleapis.com/v1/mapTypes/${encodeURIComponent(indexType)}/heatmapTiles/${String(z)}/${String(x)}/${String(y)}`;
    const result = toPythonJson({ endpoint, tile: { z, x, y, indexType }, content_type: 'image/png', saved_path: '{{saved_path}}', bytes: png.length });
    const source =
      'servers/google-air/tools.ts layout (endpoint, tile, content_type, saved_path, bytes, then the image) built by tools/build-file-fixtures.ts; the image is a labelled stand-in, not an air-quality tile';
    tiles.push({ arguments: call.arguments, result, source, asset: { file: `assets/${stem}.png`, saveAs: `${stem}.png`, image: true } });
  }
  await writeJson('google-air', 'heatmap_tile', tiles);
}

await buildArxiv();
await buildImages();
