// Two visitors of one demo (issue 30, item 1): a session answers only the visitor whose cookie
// created it, so knowing another session's id (it is the task id of every call, and appears in
// tool paths) grants neither reading nor uploading; and the JSON-RPC log of a shared server shows
// a session its own calls and the shared protocol traffic, never another session's id or payload.
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoHarness, type DemoHarness } from '../demo/demo-harness.js';
import { rawRequest } from '../demo/raw-http.js';

let harness: DemoHarness;
beforeAll(async () => {
  harness = await startDemoHarness({ servers: ['math'] });
}, 120_000);
afterAll(async () => {
  await harness?.close();
});

const visitor = () => `m3demo_visitor=${randomBytes(32).toString('base64url')}`;
const visitorA = visitor();
const visitorB = visitor();
const privateNumber = 987_654_321;

function call(cookie: string, method: string, path: string, body?: unknown) {
  const origin = harness.url.replace(/\/$/, '');
  const json = body !== undefined && !Buffer.isBuffer(body);
  return rawRequest(harness.url, {
    method,
    path,
    headers: {
      cookie,
      ...(method === 'GET' ? {} : { origin, 'sec-fetch-site': 'same-origin' }),
      ...(json ? { 'content-type': 'application/json' } : Buffer.isBuffer(body) ? { 'content-type': 'application/octet-stream' } : {}),
    },
    ...(body === undefined ? {} : { body: Buffer.isBuffer(body) ? body : JSON.stringify(body) }),
  });
}

describe('demo sessions belong to the visitor that created them', () => {
  let sessionA = '';
  let sessionB = '';

  it('hands a new visitor an HttpOnly, SameSite=Strict cookie with its first session', async () => {
    const created = await rawRequest(harness.url, {
      method: 'POST',
      path: '/api/sessions',
      headers: { cookie: '', origin: harness.url.replace(/\/$/, ''), 'sec-fetch-site': 'same-origin' },
    });
    expect(created.status).toBe(201);
    const cookie = String(created.headers['set-cookie'] ?? '');
    expect(cookie).toMatch(/^m3demo_visitor=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict$/);
    // The token is not in the body the page's script reads.
    expect(created.text).not.toContain(cookie.split(';')[0]?.split('=')[1]);
    const token = cookie.split(';')[0] ?? '';
    const id = created.json<{ id: string }>().id;
    expect((await call(token, 'GET', `/api/sessions/${id}`)).status).toBe(200);
  });

  it("refuses another visitor's session id for reading, uploading, events, messages and tools", async () => {
    sessionA = (await call(visitorA, 'POST', '/api/sessions')).json<{ id: string }>().id;
    sessionB = (await call(visitorB, 'POST', '/api/sessions')).json<{ id: string }>().id;
    expect((await call(visitorB, 'GET', `/api/sessions/${sessionB}`)).status).toBe(200);
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#204080' } })
      .png()
      .toBuffer();
    const uploaded = await call(visitorB, 'POST', `/api/sessions/${sessionB}/images`, png);
    expect(uploaded.status).toBe(201);
    const imageUrl = uploaded.json<{ url: string }>().url;
    for (const cookie of [visitorA, '']) {
      expect((await call(cookie, 'GET', `/api/sessions/${sessionB}`)).status).toBe(404);
      expect((await call(cookie, 'POST', `/api/sessions/${sessionB}/images`, png)).status).toBe(404);
      expect((await call(cookie, 'GET', imageUrl)).status).toBe(404);
      expect((await call(cookie, 'GET', `/api/sessions/${sessionB}/events?after=0`)).status).toBe(404);
      expect((await call(cookie, 'POST', `/api/sessions/${sessionB}/messages`, { text: 'hi', model: 'openai:mock-model' })).status).toBe(404);
      expect((await call(cookie, 'POST', `/api/sessions/${sessionB}/cancel`, {})).status).toBe(404);
      expect(
        (await call(cookie, 'POST', '/api/tools/call', { sessionId: sessionB, tool: 'math/add', arguments: { firstNumber: 1, secondNumber: 2 } })).status,
      ).toBe(404);
    }
    // B's session still has exactly its own upload.
    expect((await call(visitorB, 'GET', `/api/sessions/${sessionB}`)).json<{ images: unknown[] }>().images).toHaveLength(1);
  });

  it("shows each session its own JSON-RPC traffic: never B's id or arguments to A, nor to a caller without a session", async () => {
    const answer = await call(visitorB, 'POST', '/api/tools/call', {
      sessionId: sessionB,
      tool: 'math/add',
      arguments: { firstNumber: privateNumber, secondNumber: 1 },
    });
    expect(answer.status).toBe(200);
    const noSession = await call(visitorA, 'GET', '/api/servers/math/rpc-log');
    expect(noSession.status).toBe(404);
    expect(noSession.text).not.toContain(String(privateNumber));
    expect((await call(visitorA, 'GET', `/api/servers/math/rpc-log?session=${sessionB}`)).status).toBe(404);
    const logA = await call(visitorA, 'GET', `/api/servers/math/rpc-log?session=${sessionA}`);
    expect(logA.status).toBe(200);
    expect(logA.text).not.toContain(sessionB);
    expect(logA.text).not.toContain(String(privateNumber));
    const entriesA = logA.json<{ entries: Array<{ method?: string }> }>().entries;
    expect(entriesA.some((entry) => entry.method === 'tools/list')).toBe(true);
    expect(entriesA.some((entry) => entry.method === 'tools/call')).toBe(false);
    const logB = await call(visitorB, 'GET', `/api/servers/math/rpc-log?session=${sessionB}`);
    const callsB = logB.json<{ entries: Array<{ method?: string; kind: string }> }>().entries.filter((entry) => entry.method === 'tools/call');
    expect(callsB.map((entry) => entry.kind)).toEqual(['request', 'response']);
    expect(logB.text).toContain(String(privateNumber));
  });
});
