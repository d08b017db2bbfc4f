// Fixtures of file and image tools: serving one writes its generated asset into the task's
// workspace (confined like the servers' own writes) and answers in the server's layout. The
// committed arXiv stand-in written by download_arxiv's fixture is then read by the real
// paper_search server (real MCP stdio, network guard on, no fake upstream): read_arxiv_paper
// finds the file where it looks and returns exactly the text its own fixture holds.
// @own-process: reading a PDF loads pdfjs-dist, which adds globals (Path2D from its own @napi-rs/canvas, self,
// navigator) and core-js polyfills to the process; chart.js in a later file would draw with that Path2D.
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ToolErrorCode } from '../../src/core/tool-result-contract.js';
import { AllowList } from '../../src/fallback/allow-list.js';
import { AuditLog } from '../../src/fallback/audit-log.js';
import { exactFixture, loadFixtures } from '../../src/fallback/fixtures.js';
import { FallbackInterceptor } from '../../src/fallback/tiers.js';
import type { CatalogTool } from '../../src/mcp/types.js';
import { silentLogger } from '../support/fallback-kit.js';
import { repoRoot } from '../support/shared-assets.js';
import { startWebServer } from '../support/web-server.js';

const fixtures = loadFixtures(path.join(repoRoot, 'tools', 'mock_runtime', 'fixtures'));
const roots = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'm3-file-fixtures-')));
afterAll(() => rmSync(roots, { recursive: true, force: true }));

const layer = new FallbackInterceptor({
  serve: true,
  record: false,
  markInline: false,
  fixtures,
  allowList: new AllowList([], fixtures),
  audit: new AuditLog(path.join(roots, 'audit.log')),
  toolsHashOf: () => '',
  logger: silentLogger,
  assetRoots: [roots],
});

function tool(name: string, properties: Record<string, unknown>): CatalogTool {
  const [server = '', toolName = ''] = name.split('/');
  return { canonicalName: name, server, tool: toolName, functionName: name.replace('/', '__'), description: '', inputSchema: { type: 'object', properties } };
}

function failedCall(catalogTool: CatalogTool, args: Record<string, unknown>, workspace: string, code: ToolErrorCode = 'upstream_network') {
  const text = '[Tool error] offline';
  return layer.afterCall({
    tool: catalogTool,
    arguments: args,
    context: { taskId: 't', workspace },
    outcome: { canonicalName: catalogTool.canonicalName, content: [{ type: 'text', text }], isError: true, errorCode: code, text, durationMs: 0 },
  });
}

const downloadArxiv = tool('paper_search/download_arxiv', { paper_id: { type: 'string' }, save_path: { type: 'string' } });
const paperArgs = { paper_id: '2510.08638v1', save_path: './downloads' };

describe('fixtures with a generated asset', () => {
  it('download_arxiv writes the stand-in PDF into the workspace and answers with its path; the real read_arxiv_paper then reads it', async () => {
    const workspace = path.join(roots, 'task-a');
    const served = await failedCall(downloadArxiv, paperArgs, workspace);
    const pdf = path.join(workspace, 'downloads', '2510.08638v1.pdf');
    expect(served.fallback?.tier).toBe('fixture');
    expect(served.content).toEqual([{ type: 'text', text: pdf }]);
    expect(readFileSync(pdf).subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const expected = exactFixture(fixtures, 'paper_search/read_arxiv_paper', paperArgs)?.text;
    expect(expected).toContain('OFFLINE FIXTURE');
    const server = await startWebServer('servers/paper-search/index.ts', { M3_ALLOWED_ROOTS: roots });
    try {
      const read = await server.call('read_arxiv_paper', paperArgs, { taskId: 't', workspace });
      expect(read.isError, read.text).toBe(false);
      expect(read.text).toBe(expected);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('static_map answers in the server layout, text then the labelled stand-in image, saved where the server saves', async () => {
    const staticMap = tool('google-maps/static_map', { center: { type: 'string' }, zoom: { type: 'integer' }, size: { type: 'string' } });
    const args = { center: 'Paris, France', zoom: 10, size: '640x640', scale: 2, maptype: 'roadmap' };
    const workspace = path.join(roots, 'task-b');
    const served = await failedCall(staticMap, args, workspace, 'missing_credentials');
    const [text, image] = served.content;
    expect(text?.type).toBe('text');
    const payload = JSON.parse(text?.type === 'text' ? text.text : '{}') as { image_url: string; saved_path: string; mime_type: string; bytes: number };
    expect(payload.image_url).toBe('https://maps.googleapis.com/maps/api/staticmap?size=640x640&scale=2&maptype=roadmap&center=Paris%2C+France&zoom=10');
    expect(path.dirname(payload.saved_path)).toBe(workspace);
    expect(payload.saved_path).toMatch(/static_map_[0-9a-f]{10}\.png$/);
    const bytes = readFileSync(payload.saved_path);
    expect(payload.bytes).toBe(bytes.length);
    expect(image).toEqual({ type: 'image', mimeType: 'image/png', data: bytes.toString('base64') });
    expect(served.text).toMatch(/\n\[image: image\/png, \d+ bytes\]$/);
  });

  it('is not served when the workspace lies outside the allowed roots (nothing written, the failure stays)', async () => {
    const outside = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'm3-outside-')));
    try {
      const served = await failedCall(downloadArxiv, paperArgs, outside);
      expect(served.isError).toBe(true);
      expect(served.fallback).toBeUndefined();
      expect(existsSync(path.join(outside, 'downloads'))).toBe(false);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('every asset a committed fixture names exists and every file or image fixture of the GT tools has one', () => {
    for (const name of [
      'paper_search/download_arxiv',
      'paper_search/read_arxiv_paper',
      'google-maps/static_map',
      'google-air/heatmap_tile',
      'linkimage-mcp/fetch_unsplash_image',
    ]) {
      const entries = [...(fixtures.tools.get(name)?.exact.values() ?? [])];
      expect(entries.length, name).toBeGreaterThan(0);
      for (const entry of entries) expect(entry.asset && existsSync(entry.asset.source), `${name} ${JSON.stringify(entry.arguments)}`).toBe(true);
    }
    expect(fixtures.problems).toEqual([]);
  });
});
