// McpHost against the fixture servers: catalog, routing, errors, timeouts, cancellation, content
// normalisation and pagination with the servers in process (the host's connectServer option);
// env isolation and cwd with real child processes, where the process is the point.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpHost } from '../../src/mcp/host.js';
import { isValidFunctionName } from '../../src/mcp/function-names.js';
import { fixtureSpec } from '../support/fixture-servers/fixture-spec.js';
import { inProcessHost } from '../support/in-process-host.js';

const silent = { debug() {}, info() {}, warn() {}, error() {} };

describe('McpHost with echo, slow, image and paged fixtures in process', { timeout: 240_000 }, () => {
  const fixtures = inProcessHost();
  let host: McpHost;
  let workDir: string;

  beforeAll(async () => {
    workDir = mkdtempSync(path.join(os.tmpdir(), 'm3-host-'));
    host = await McpHost.start(
      [
        fixtureSpec('echo'),
        fixtureSpec('slow'),
        fixtureSpec('slow', { name: 'patient', callTimeoutMs: 500 }),
        fixtureSpec('image'),
        fixtureSpec('paged', { env: { PAGED_TOOL_COUNT: '25', PAGED_PAGE_SIZE: '10' } }),
      ],
      { callTimeoutMs: 10_000, startupTimeoutMs: 90_000, logger: silent, connectServer: fixtures.connectServer },
    );
  });

  afterAll(async () => {
    await host?.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('starts every server and builds a catalog of canonical names with safe function names', () => {
    expect(fixtures.connected).toEqual(['echo', 'slow', 'patient', 'image', 'paged']);
    expect(host.status().map((server) => [server.name, server.state])).toEqual([
      ['echo', 'ready'],
      ['slow', 'ready'],
      ['patient', 'ready'],
      ['image', 'ready'],
      ['paged', 'ready'],
    ]);
    const echo = host.findByCanonical('echo/echo');
    expect(echo).toMatchObject({ server: 'echo', tool: 'echo', functionName: 'echo__echo' });
    expect(echo?.inputSchema).toMatchObject({ type: 'object', required: ['text'] });
    expect(host.findByFunctionName('image__make_image')?.canonicalName).toBe('image/make_image');
    for (const tool of host.tools) expect(isValidFunctionName(tool.functionName)).toBe(true);
    expect(new Set(host.tools.map((tool) => tool.functionName)).size).toBe(host.tools.length);
    for (const server of host.status()) expect(server.toolsHash).toMatch(/^[0-9a-f]{64}$/);
    expect(host.toolsHash()).toMatch(/^[0-9a-f]{64}$/);
  });

  it('follows tools/list pagination (25 tools in pages of 10)', async () => {
    const paged = host.tools.filter((tool) => tool.server === 'paged').map((tool) => tool.tool);
    expect(paged).toHaveLength(25);
    expect(paged[0]).toBe('tool_000');
    expect(paged[24]).toBe('tool_024');
    const outcome = await host.callTool('paged/tool_024', {});
    expect(outcome.text).toBe('called tool_024');
  });

  it('calls a tool and reports duration', async () => {
    const outcome = await host.callTool('echo/echo', { text: 'héllo\nworld' });
    expect(outcome).toMatchObject({ canonicalName: 'echo/echo', isError: false, text: 'héllo\nworld' });
    expect(outcome.errorCode).toBeUndefined();
    expect(outcome.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('propagates isError with a [Tool error] prefix', async () => {
    const outcome = await host.callTool('echo/fail', { message: 'disk on fire' });
    expect(outcome.isError).toBe(true);
    expect(outcome.errorCode).toBeUndefined();
    expect(outcome.text).toBe('[Tool error] disk on fire');
  });

  it('turns invalid arguments into an error result, not an exception', async () => {
    const outcome = await host.callTool('echo/echo', { text: 42 });
    expect(outcome.isError).toBe(true);
    expect(outcome.text).toMatch(/^\[Tool error\] .*Input validation error/);
  });

  it('answers unknown tools with unknown_tool and the reference message', async () => {
    const outcome = await host.callTool('echo/nope', {});
    expect(outcome).toMatchObject({ isError: true, errorCode: 'unknown_tool', text: '[Tool error] Unknown tool: echo/nope' });
    const wrongCase = await host.callTool('Echo/echo', { text: 'x' });
    expect(wrongCase.errorCode).toBe('unknown_tool');
  });

  it('times out a slow call within tolerance, cancels it on the server, and the server stays usable', async () => {
    const began = Date.now();
    const outcome = await host.callTool('slow/sleep', { ms: 30_000 }, { timeoutMs: 300 });
    const elapsed = Date.now() - began;
    expect(outcome.errorCode).toBe('tool_timeout');
    expect(outcome.isError).toBe(true);
    expect(outcome.text).toMatch(/^\[Tool error\] slow\/sleep did not answer within 300 ms/);
    // No upper bound on the clock: a 30 s sleep that was not cut would answer "slept 30000 ms", not tool_timeout.
    expect(elapsed).toBeGreaterThanOrEqual(280);
    await expect.poll(() => fixtures.linesOf('slow').some((line) => line.startsWith('cancelled after')), { timeout: 30_000 }).toBe(true);
    expect((await host.callTool('slow/ping', {})).text).toBe('pong');
  });

  it('uses the server callTimeoutMs over the host default and the per-call value', async () => {
    const outcome = await host.callTool('patient/sleep', { ms: 30_000 }, { timeoutMs: 60_000 });
    expect(outcome.errorCode).toBe('tool_timeout');
    // "within 500 ms" names the server's bound; neither the 60 s per-call value nor the 30 s sleep ended the call.
    expect(outcome.text).toContain('within 500 ms');
  });

  it('resolves an aborted call with errorCode aborted', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const outcome = await host.callTool('slow/sleep', { ms: 30_000 }, { signal: controller.signal, timeoutMs: 0 });
    // A sleep that ran out (timeoutMs 0 disables the bound) would answer "slept 30000 ms", not aborted.
    expect(outcome.errorCode).toBe('aborted');
  });

  it('shows image content as a short marker and keeps the base64 payload in content', async () => {
    const outcome = await host.callTool('image/make_image', { width: 40, height: 30 });
    expect(outcome.isError).toBe(false);
    const image = outcome.content.find((item) => item.type === 'image');
    expect(image?.type === 'image' && image.mimeType).toBe('image/png');
    const bytes = Buffer.from(image?.type === 'image' ? image.data : '', 'base64');
    expect((await fileTypeFromBuffer(bytes))?.mime).toBe('image/png');
    expect(outcome.text).toBe(`rendered 40x30\n[image: image/png, ${bytes.length} bytes]`);
    expect(outcome.text.length).toBeLessThan(100);
  });

  it('returns image file paths as reference-style JSON text (the file is a PNG despite .txt)', async () => {
    const outcome = await host.callTool('image/write_image', { dir: workDir, name: 'shot' });
    const payload = JSON.parse(outcome.text) as { images: string[] };
    expect(payload.images).toEqual([path.join(workDir, 'shot.txt')]);
    expect((await fileTypeFromBuffer(readFileSync(payload.images[0] ?? '')))?.mime).toBe('image/png');
  });

  it('keeps resources, resource links and audio, and summarises binary payloads', async () => {
    const outcome = await host.callTool('echo/mixed', {});
    expect(outcome.content.map((item) => item.type)).toEqual(['resource', 'resource', 'resource_link', 'audio']);
    expect(outcome.text).toBe(
      [
        'embedded notes',
        '[resource: file:///fixture/blob.bin, application/octet-stream, 4 bytes]',
        '[resource link: file:///fixture/linked.png (linked.png)]',
        '[audio: audio/wav, 16 bytes]',
      ].join('\n'),
    );
  });

  it('appends structured content as JSON when there is no text', async () => {
    const outcome = await host.callTool('echo/structured', {});
    expect(outcome.structuredContent).toEqual({ total: 42, items: ['a', 'b'] });
    expect(outcome.text).toBe('{"total":42,"items":["a","b"]}');
  });
});

describe('McpHost child environment and working directory', { timeout: 240_000 }, () => {
  const secretName = 'OPENAI_API_KEY';
  const previous = process.env[secretName];
  let host: McpHost;
  let workDir: string;

  beforeAll(async () => {
    process.env[secretName] = 'sk-parent-secret-should-not-leak-0123456789';
    workDir = mkdtempSync(path.join(os.tmpdir(), 'm3-cwd-'));
    host = await McpHost.start(
      [
        fixtureSpec('echo', { env: { OWN_SETTING: 'mine' } }),
        fixtureSpec('echo', { name: 'other', env: { OTHER_SERVICE_TOKEN: 'token-of-another-server' }, cwd: workDir }),
      ],
      { sharedEnv: { M3_ALLOWED_ROOTS: workDir }, startupTimeoutMs: 90_000, logger: silent },
    );
  });

  afterAll(async () => {
    await host?.close();
    if (previous === undefined) delete process.env[secretName];
    else process.env[secretName] = previous;
    rmSync(workDir, { recursive: true, force: true });
  });

  it('gives a child only the base variables, the shared env and its own env', async () => {
    const names = [secretName, 'OTHER_SERVICE_TOKEN', 'OWN_SETTING', 'M3_ALLOWED_ROOTS', 'PATH', 'NODE_OPTIONS'];
    const seen = JSON.parse((await host.callTool('echo/print_env', { names })).text) as Record<string, string | null>;
    expect(seen[secretName]).toBeNull();
    expect(seen.OTHER_SERVICE_TOKEN).toBeNull();
    expect(seen.OWN_SETTING).toBe('mine');
    expect(seen.M3_ALLOWED_ROOTS).toBe(workDir);
    expect(seen.PATH).toBe(process.env.PATH);
    expect(seen.NODE_OPTIONS).toBeNull();
    const other = JSON.parse((await host.callTool('other/print_env', { names })).text) as Record<string, string | null>;
    expect(other.OTHER_SERVICE_TOKEN).toBe('token-of-another-server');
    expect(other.OWN_SETTING).toBeNull();
    expect(other[secretName]).toBeNull();
  });

  it('lists no parent variable beyond the documented base', async () => {
    const names = JSON.parse((await host.callTool('echo/env_names', {})).text) as string[];
    const allowed = new Set([
      'PATH',
      'HOME',
      'LANG',
      'LC_ALL',
      'LC_CTYPE',
      'TZ',
      'TMPDIR',
      'TEMP',
      'TMP',
      'LOGNAME',
      'SHELL',
      'TERM',
      'USER',
      'OWN_SETTING',
      'M3_ALLOWED_ROOTS',
      'M3_NETWORK_GUARD',
    ]);
    // Node itself may define a few variables in the child (none start with a secret-like name).
    const unexpected = names.filter((name) => !allowed.has(name) && !name.startsWith('NODE_') && !name.startsWith('TSX_'));
    expect(unexpected).toEqual([]);
  });

  it('runs each child in its configured cwd', async () => {
    expect((await host.callTool('other/cwd', {})).text).toBe(workDir);
    expect((await host.callTool('echo/cwd', {})).text).toBe(path.resolve(import.meta.dirname, '../..'));
  });
});
