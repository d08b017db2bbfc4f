// The JSON-RPC log of a server session: the ring buffer keeps the newest entries, pairs each
// response with its request's method, masks secrets and elides image bytes; the logging
// transport, wrapped around the host's transport to each server (here the servers run in
// process, through the connectServer option: the transport under the log does not matter to
// it), records every message both ways without changing what the host gets back, and a host
// that keeps no log has none. The imageops server's
// resources and prompt are read through the same inspection the demo uses.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadServersConfig } from '../../src/config/servers.js';
import { registerSecret } from '../../src/log/redact.js';
import { McpHost } from '../../src/mcp/host.js';
import { RpcLog } from '../../src/mcp/rpc-log.js';
import { fixtureSpec } from '../support/fixture-servers/fixture-spec.js';
import { inProcessHost } from '../support/in-process-host.js';
import { repoRoot } from '../support/shared-assets.js';

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const secret = 'rpc-log-secret-5d1e77a0c3';

describe('RpcLog', () => {
  it('keeps the newest maxEntries entries, numbered over the whole session', () => {
    const log = new RpcLog(3);
    for (let id = 1; id <= 5; id += 1) {
      log.record('sent', { jsonrpc: '2.0', id, method: 'tools/call', params: { name: `t${id}` } });
      log.record('received', { jsonrpc: '2.0', id, result: { content: [] } });
    }
    expect(log.total).toBe(10);
    expect(log.list().map((entry) => entry.seq)).toEqual([8, 9, 10]);
    expect(log.list(9).map((entry) => entry.seq)).toEqual([10]);
    const [request, response] = log.list(8);
    expect(request).toMatchObject({ direction: 'sent', kind: 'request', method: 'tools/call', id: 5 });
    expect(response).toMatchObject({ direction: 'received', kind: 'response', method: 'tools/call', id: 5 });
  });

  it('names notifications and errors, and pairs ids per direction', () => {
    const log = new RpcLog(10);
    log.record('sent', { jsonrpc: '2.0', method: 'notifications/initialized' });
    log.record('received', { jsonrpc: '2.0', id: 0, method: 'roots/list' });
    log.record('sent', { jsonrpc: '2.0', id: 0, method: 'ping' });
    log.record('received', { jsonrpc: '2.0', id: 0, error: { code: -32601, message: 'no such method' } });
    log.record('sent', { jsonrpc: '2.0', id: 0, result: { roots: [] } });
    expect(log.list().map((entry) => [entry.kind, entry.method])).toEqual([
      ['notification', 'notifications/initialized'],
      ['request', 'roots/list'],
      ['request', 'ping'],
      ['error', 'ping'],
      ['response', 'roots/list'],
    ]);
  });

  it('masks registered secrets and credential-named fields, and elides long base64 payloads', () => {
    registerSecret(secret);
    const log = new RpcLog(10);
    const png = Buffer.alloc(50_000, 7).toString('base64');
    log.record('sent', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: `key ${secret}`, api_key: 'plain-value' } } });
    log.record('received', { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'image', mimeType: 'image/png', data: png }] } });
    const text = JSON.stringify(log.list());
    expect(text).not.toContain(secret);
    expect(text).not.toContain('plain-value');
    expect(text).toContain('key [REDACTED]');
    expect(text).not.toContain(png.slice(0, 200));
    expect(text).toMatch(/\[base64 elided: 50000 bytes, sha256 [0-9a-f]{16}\]/);
  });
});

describe('the logging transport on the fixture and imageops servers', { timeout: 240_000 }, () => {
  const inProcess = inProcessHost({ local: true });
  let host: McpHost;
  let plain: McpHost;

  beforeAll(async () => {
    registerSecret(secret);
    const imageops = loadServersConfig(path.join(repoRoot, 'mcp_servers.json'), { env: {}, root: repoRoot }).filter((spec) => spec.name === 'imagesorcery-mcp');
    [host, plain] = await Promise.all([
      McpHost.start([fixtureSpec('echo'), fixtureSpec('image'), ...imageops], {
        requireAll: true,
        startupTimeoutMs: 90_000,
        logger: silent,
        rpcLogEntries: 40,
        connectServer: inProcess.connectServer,
      }),
      McpHost.start([fixtureSpec('echo')], { requireAll: true, startupTimeoutMs: 90_000, logger: silent, connectServer: inProcess.connectServer }),
    ]);
    expect(inProcess.connected.sort()).toEqual(['echo', 'echo', 'image', 'imagesorcery-mcp']);
  });
  afterAll(async () => {
    await host?.close();
    await plain?.close();
  });

  it('records the handshake and a tool call both ways, with matching ids, and the host gets the same result', async () => {
    const outcome = await host.callTool('echo/echo', { text: `hello ${secret}` });
    expect(outcome.text).toBe(`hello ${secret}`);
    const entries = host.inspect('echo')?.rpcLog?.list() ?? [];
    expect(entries.slice(0, 4).map((entry) => [entry.direction, entry.kind, entry.method])).toEqual([
      ['sent', 'request', 'initialize'],
      ['received', 'response', 'initialize'],
      ['sent', 'notification', 'notifications/initialized'],
      ['sent', 'request', 'tools/list'],
    ]);
    const call = entries.find((entry) => entry.method === 'tools/call' && entry.kind === 'request');
    const answer = entries.find((entry) => entry.method === 'tools/call' && entry.kind === 'response');
    expect(call?.id).toBeDefined();
    expect(answer?.id).toBe(call?.id);
    expect(answer!.seq).toBeGreaterThan(call!.seq);
    expect(JSON.stringify(entries)).not.toContain(secret);
    expect(JSON.stringify(answer?.payload)).toContain('hello [REDACTED]');
  });

  it('elides the image bytes a tool returned, keeps the bound, and a host without a log keeps none', async () => {
    const outcome = await host.callTool('image/make_image', { width: 400, height: 300 });
    expect(outcome.content.some((item) => item.type === 'image' && item.data.length > 1000)).toBe(true);
    const answer = host
      .inspect('image')
      ?.rpcLog?.list()
      .find((entry) => entry.method === 'tools/call' && entry.kind === 'response');
    expect(JSON.stringify(answer?.payload)).toMatch(/"data":"\[base64 elided: \d+ bytes, sha256 [0-9a-f]{16}\]"/);
    for (let n = 0; n < 30; n += 1) await host.callTool('echo/echo', { text: String(n) });
    const log = host.inspect('echo')?.rpcLog;
    expect(log?.list()).toHaveLength(40);
    expect(log?.total).toBeGreaterThan(60);
    expect(plain.inspect('echo')?.rpcLog).toBeUndefined();
    expect(plain.inspect('nothing')).toBeUndefined();
  });

  it("lists and reads the imageops server's resources and fills in its prompt; a server without them is asked nothing", async () => {
    const imageops = host.inspect('imagesorcery-mcp')!;
    expect(imageops.capabilities).toEqual({ tools: true, resources: true, prompts: true });
    expect((await imageops.listResources()).map((resource) => resource.uri).sort()).toEqual(['imageops://colors.png', 'imageops://limits']);
    const limits = await imageops.readResource('imageops://limits');
    const facts = JSON.parse(String((limits.contents[0] as { text: string }).text));
    expect(facts.outputExtensions).toContain('.png');
    expect(facts.colors.names).toContain('red');
    const swatch = (await imageops.readResource('imageops://colors.png')).contents[0] as { blob: string; mimeType: string };
    expect(swatch.mimeType).toBe('image/png');
    expect(Buffer.from(swatch.blob, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect((await imageops.listPrompts()).map((prompt) => prompt.name)).toEqual(['mark-objects']);
    const prompt = await imageops.getPrompt('mark-objects', { image_path: './media/a.jpg', objects: 'dogs' });
    expect(prompt.messages[0]?.content).toMatchObject({ type: 'text' });
    expect((prompt.messages[0]?.content as { text: string }).text).toContain('all the dogs in the image at ./media/a.jpg');
    const echo = host.inspect('echo')!;
    expect(echo.capabilities.resources).toBe(false);
    expect(await echo.listResources()).toEqual([]);
    expect(await echo.listPrompts()).toEqual([]);
    expect(echo.rpcLog?.list().some((entry) => entry.method === 'resources/list' || entry.method === 'prompts/list')).toBe(false);
  });
});
