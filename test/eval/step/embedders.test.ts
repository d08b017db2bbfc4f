// The built-in hashgram embedder's similarity behaviour, and the OpenAI-compatible embedder
// against a real node:http server on 127.0.0.1 that answers with deterministic vectors.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHashgramEmbedder, HASHGRAM_ID } from '../../../src/eval/embed/hashgram.js';
import { createOpenAiCompatibleEmbedder } from '../../../src/eval/embed/openai-compatible.js';
import { createEmbedder } from '../../../src/eval/embed/registry.js';
import { cosineSimilarity } from '../../../src/eval/step/similarity.js';

describe('hashgram-v1', () => {
  const embedder = createHashgramEmbedder();
  const sim = async (a: string, b: string) => {
    const [left, right] = await embedder.embed([a, b]);
    return cosineSimilarity(left as Float32Array, right as Float32Array);
  };

  it('is deterministic, unit length and has the declared dimension', async () => {
    const [first] = await embedder.embed(['{"title":"Paris"}']);
    const [again] = await createHashgramEmbedder().embed(['{"title":"Paris"}']);
    expect(embedder.id).toBe(HASHGRAM_ID);
    expect(first).toHaveLength(512);
    expect(Array.from(first as Float32Array)).toEqual(Array.from(again as Float32Array));
    const length = Math.hypot(...Array.from(first as Float32Array));
    expect(length).toBeCloseTo(1, 6);
  });

  it('scores identical texts 1, close edits high, same keys with other values below tau_weak, unrelated texts near 0', async () => {
    expect(await sim('{"title":"Paris"}', '{"title":"Paris"}')).toBeCloseTo(1, 6);
    expect(await sim('{"title":"Paris"}', '{"title":"Paris, France"}')).toBeGreaterThan(0.6);
    expect(await sim('{"keywords":"organic green tea","n":5}', '{"keywords":"green tea organic","n":3}')).toBeGreaterThan(0.6);
    expect(await sim('{"title":"Paris"}', '{"title":"Tokyo"}')).toBeLessThan(0.6);
    expect(await sim('{"keywords":"organic green tea","n":5}', '{"keywords":"xqzv plomb rtew","n":913}')).toBeLessThan(0.4);
    expect(Math.abs(await sim('{"city":"Paris"}', '{"query":"weather forecast for tokyo tomorrow"}'))).toBeLessThan(0.2);
  });

  it('is case-insensitive like the uncased reference encoder and handles astral characters', async () => {
    expect(await sim('{"title":"PARIS"}', '{"title":"paris"}')).toBeCloseTo(1, 6);
    expect(await sim('{"t":"😀 party"}', '{"t":"😀 party!"}')).toBeGreaterThan(0.8);
  });
});

interface Recorded {
  authorization: string | undefined;
  body: { model: string; input: string[] };
}

function vectorFor(text: string): number[] {
  return [text.length, text.charCodeAt(0) || 0, 1];
}

describe('openai-compatible embedder (HTTP on 127.0.0.1)', () => {
  const requests: Recorded[] = [];
  let failNext = 0;
  let server: Server;
  let baseUrl = '';

  beforeAll(async () => {
    server = createServer((request: IncomingMessage, response: ServerResponse) => {
      let raw = '';
      request.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      request.on('end', () => {
        if (request.url === '/slow/v1/embeddings') return; // never answers
        const body = JSON.parse(raw) as Recorded['body'];
        requests.push({ authorization: request.headers.authorization, body });
        if (failNext > 0) {
          failNext -= 1;
          response.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"overloaded"}');
          return;
        }
        // Answer out of order: the client must sort by `index`.
        const data = body.input.map((text, index) => ({ object: 'embedding', index, embedding: vectorFor(text) })).reverse();
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data, model: body.model }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('batches by 64, sends model and key, and returns vectors in input order', async () => {
    requests.length = 0;
    const embedder = createOpenAiCompatibleEmbedder({ model: 'mini', baseUrl, apiKey: 'sk-test-123' });
    const texts = Array.from({ length: 130 }, (_, index) => `text-${index}`);
    const vectors = await embedder.embed(texts);
    expect(requests.map((request) => request.body.input.length)).toEqual([64, 64, 2]);
    expect(requests[0]?.body.model).toBe('mini');
    expect(requests[0]?.authorization).toBe('Bearer sk-test-123');
    expect(vectors.map((vector) => Array.from(vector))).toEqual(texts.map(vectorFor));
    expect(embedder.dimension).toBe(3);
    expect(embedder.id).toBe(`openai-compatible:mini@${baseUrl}`);
  });

  it('retries a 503 and resolves the spec with the key taken from the named env variable', async () => {
    requests.length = 0;
    failNext = 1;
    const embedder = createEmbedder(`openai-compatible:mini@${baseUrl}`, { env: { MY_EMBED_KEY: 'k-1' }, apiKeyEnv: 'MY_EMBED_KEY' });
    const [vector] = await embedder.embed(['abc']);
    expect(Array.from(vector as Float32Array)).toEqual(vectorFor('abc'));
    expect(requests).toHaveLength(2);
    expect(requests[1]?.authorization).toBe('Bearer k-1');
  });

  it('reports HTTP errors and timeouts with the endpoint and cause', async () => {
    failNext = 5;
    const failing = createOpenAiCompatibleEmbedder({ model: 'mini', baseUrl, maxRetries: 1, retryDelayMs: 10 });
    await expect(failing.embed(['x'])).rejects.toThrow(/embeddings \(model mini\) failed: HTTP 503/);
    failNext = 0;
    const slowUrl = baseUrl.replace(/\/v1$/, '/slow/v1');
    const slow = createOpenAiCompatibleEmbedder({ model: 'mini', baseUrl: slowUrl, timeoutMs: 200, maxRetries: 0 });
    await expect(slow.embed(['x'])).rejects.toThrow(/no answer within 200 ms/);
  });

  it('rejects unknown embedder specs with the accepted forms', () => {
    expect(() => createEmbedder('minilm')).toThrow(/openai-compatible:<model>@<baseUrl>/);
    expect(() => createEmbedder('openai-compatible:m@not a url')).toThrow(/is not a URL/);
    expect(createEmbedder('hashgram-v1/128').dimension).toBe(128);
  });
});
