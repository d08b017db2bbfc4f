// The `openlibrary_mcp` server as a real child process over MCP stdio against a loopback fake of
// OpenLibrary (/api/books, /search.json): the reference's answer layout (FastMCP's two-space JSON,
// book fields under "metadata"), its ISBN quirk, the requests it sends, typed outages.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smoke } from '../../../servers/openlibrary/smoke.js';
import { startHttpFake, type HttpFake } from '../../../servers/shared/http-fake.js';
import { argumentCheckProblems, catalogTools, distinctArguments, gtCalls, schemaParityProblems } from '../../support/reference-tools.js';
import { shortTimeoutMessage, slowReply } from '../../support/slow-upstream.js';
import { describeFixturesAndSmoke, loadFixtureBody, startWebServer, type WebServer } from '../../support/web-server.js';

const fixtures = path.join(import.meta.dirname, 'fixtures');
const tomSawyer = loadFixtureBody<Record<string, unknown>>(fixtures, 'books-tom-sawyer')['ISBN:0451526538'];
const calls = gtCalls('openlibrary_mcp');

let fake: HttpFake;
let server: WebServer;

beforeAll(async () => {
  fake = await startHttpFake([
    // The documented book, under whatever bibkey was asked for (a miss is tested separately).
    { path: '/api/books', reply: (request) => ({ body: { [String(request.query.bibkeys)]: tomSawyer } }) },
    { path: '/search.json', reply: { body: loadFixtureBody(fixtures, 'search-lord-of-the-rings') } },
  ]);
  server = await startWebServer('servers/openlibrary/index.ts', { M3_UPSTREAM_OPENLIBRARY_URL: fake.url });
});

afterAll(async () => {
  await server?.close();
  await fake?.close();
});

const isbnAnswer = (isbn: string) =>
  [
    '{',
    '  "query_type": "isbn",',
    '  "metadata": {',
    `    "isbn": "${isbn}",`,
    '    "title": "The adventures of Tom Sawyer",',
    '    "authors": [',
    '      "Mark Twain"',
    '    ],',
    '    "publish_date": "1997",',
    '    "publisher": [',
    '      "Signet Classic"',
    '    ],',
    '    "pages": 216',
    '  }',
    '}',
  ].join('\n');

describe('openlibrary_mcp tool surface', () => {
  it('lists get_book_info with the reference schema (three nullable optional strings) and accepts every GT call', (context) => {
    expect(server.tools.map((tool) => tool.name)).toEqual(['get_book_info']);
    const catalog = catalogTools('openlibrary_mcp');
    if (!catalog || !calls) return context.skip('shared M3-Bench data not found under ../shared/data/m3bench');
    expect(schemaParityProblems(server.tools, catalog)).toEqual([]);
    expect(calls).toHaveLength(6);
    expect(argumentCheckProblems('openlibrary_mcp', server.tools, calls)).toEqual([]);
  });
});

describe('openlibrary_mcp/get_book_info', () => {
  it('answers every GT ISBN in the reference layout and asks /api/books with jscmd=data', async (context) => {
    if (!calls) return context.skip('test_mcp_GT.json not found');
    for (const args of distinctArguments(calls, 'get_book_info')) {
      const result = await server.call('get_book_info', args);
      expect(result.isError, result.text).toBe(false);
      expect(result.text).toBe(isbnAnswer(String(args.isbn)));
      const request = fake.requestsTo('/api/books').at(-1);
      expect(request?.query).toEqual({ bibkeys: `ISBN:${args.isbn}`, format: 'json', jscmd: 'data' });
      expect(request?.headers.accept).toBe('application/json');
    }
  });

  it('keeps the reference quirk of turning a 13-character ISBN that starts with 0 into 978…', async () => {
    const result = await server.call('get_book_info', { isbn: '0123456789012' });
    expect(fake.requestsTo('/api/books').at(-1)?.query.bibkeys).toBe('ISBN:978123456789012');
    expect(JSON.parse(result.text).metadata.isbn).toBe('978123456789012');
  });

  it('says "Book not found" when the answer lacks the bibkey (a 200 with {})', async () => {
    fake.queueFault('/api/books', { body: loadFixtureBody(fixtures, 'books-miss') });
    const result = await server.call('get_book_info', { isbn: '9999999999' });
    expect(result).toMatchObject({ isError: false, text: '{\n  "message": "Book not found for ISBN 9999999999."\n}' });
  });

  it('searches by title and author when there is no ISBN, taking the first doc', async () => {
    const result = await server.call('get_book_info', { title: 'The Lord of the Rings', author: 'Tolkien' });
    expect(fake.requestsTo('/search.json').at(-1)?.query).toEqual({ q: 'The Lord of the Rings Tolkien' });
    expect(result.text).toBe(
      [
        '{',
        '  "query_type": "search",',
        '  "query": "The Lord of the Rings Tolkien",',
        '  "metadata": {',
        '    "title": "The Lord of the Rings",',
        '    "authors": [',
        '      "J. R. R. Tolkien"',
        '    ],',
        '    "publish_date": 1954,',
        '    "publisher": [],',
        '    "isbn": null',
        '  }',
        '}',
      ].join('\n'),
    );
    fake.queueFault('/search.json', { body: loadFixtureBody(fixtures, 'search-empty') });
    const none = await server.call('get_book_info', { title: 'zzqx', isbn: '' });
    expect(none.text).toBe('{\n  "message": "No book found for query \'zzqx\'."\n}');
  });

  it('asks for an ISBN or a title when neither is given, in the reference words', async () => {
    const result = await server.call('get_book_info', { author: 'Mark Twain' });
    expect(result).toMatchObject({ isError: true, text: '{\n  "error": "Please provide either an ISBN or a title."\n}', errorMeta: undefined });
  });

  it('reports a request OpenLibrary refuses (4xx) as the reference did, as an ordinary tool error', async () => {
    fake.queueFault('/api/books', { status: 400, body: 'bad bibkeys' });
    const result = await server.call('get_book_info', { isbn: 'x' });
    expect(result.isError).toBe(true);
    expect(result.errorMeta).toBeUndefined();
    expect(JSON.parse(result.text)).toEqual({
      error: `Network error: 400 Client Error: Bad Request for url: ${fake.url}/api/books?bibkeys=ISBN%3Ax&format=json&jscmd=data`,
    });
  });
});

describe('openlibrary_mcp upstream failures are typed (the reference answered them as {"error": ...})', () => {
  it('429 with retry-after, 500, malformed JSON, a wrong shape and a slow answer', async () => {
    fake.queueFault('/api/books', { status: 429, headers: { 'retry-after': '7' } });
    expect((await server.call('get_book_info', { isbn: '9781471201738' })).errorMeta).toEqual({
      code: 'upstream_rate_limited',
      status: 429,
      retryAfterSec: 7,
      upstream: '127.0.0.1',
    });
    fake.queueFault('/search.json', { status: 502 });
    expect((await server.call('get_book_info', { title: 'Dune' })).errorMeta).toMatchObject({ code: 'upstream_server_error', status: 502 });
    fake.queueFault('/api/books', { body: '{"ISBN:1": ', headers: { 'content-type': 'application/json' } });
    expect((await server.call('get_book_info', { isbn: '1' })).errorMeta?.code).toBe('upstream_bad_response');
    fake.queueFault('/search.json', { body: { docs: 'none' } });
    expect((await server.call('get_book_info', { title: 'Dune' })).errorMeta?.code).toBe('upstream_bad_response');
    fake.queueFault('/api/books', slowReply({}));
    const slow = await server.callWithShortTimeout('get_book_info', { isbn: '1' });
    expect(slow.errorMeta?.code).toBe('upstream_timeout');
    expect(slow.text).toContain(shortTimeoutMessage);
  });
});

describeFixturesAndSmoke('openlibrary_mcp', 'servers/openlibrary/index.ts', smoke, () => server);
