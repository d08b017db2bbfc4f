// getJson(url, { schema }): the shared client checks an upstream's JSON against the shape the
// server reads, so no server writes "fetch, safeParse, throw upstream_bad_response" itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHttpClient } from '../../../servers/shared/http-client.js';
import { startHttpFake, type HttpFake } from '../../../servers/shared/http-fake.js';
import { UpstreamError } from '../../../servers/shared/upstream-error.js';
import { guarded } from '../../../servers/shared/tool-result.js';
import { readToolErrorMeta } from '../../../src/core/tool-result-contract.js';

let fake: HttpFake;
const http = () => createHttpClient({ server: 'test', retries: 0, env: {} });
const bookSchema = z.object({ title: z.string(), pages: z.number() });

beforeAll(async () => {
  fake = await startHttpFake([
    { path: '/book', reply: { body: { title: 'Dune', pages: 412, extra: true } } },
    { path: '/broken', reply: { body: { title: 'Dune', pages: 'many' } } },
  ]);
});
afterAll(() => fake.close());

describe('getJson with a schema', () => {
  it('returns the parsed value', async () => {
    const response = await http().getJson(`${fake.url}/book`, { schema: bookSchema, what: 'book' });
    expect(response.body).toEqual({ title: 'Dune', pages: 412 });
  });

  it('throws upstream_bad_response naming the upstream, what was asked and the mismatch', async () => {
    const error = await http()
      .getJson(`${fake.url}/broken`, { schema: bookSchema, what: 'book' })
      .then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).code).toBe('upstream_bad_response');
    expect((error as UpstreamError).upstream).toBe('127.0.0.1');
    expect((error as UpstreamError).message).toMatch(/^127\.0\.0\.1: the book response has an unexpected shape \(.*number.*\)$/);
    const result = await guarded(() =>
      http()
        .getJson(`${fake.url}/broken`, { schema: bookSchema })
        .then(() => ({ content: [] })),
    );
    expect(readToolErrorMeta(result._meta)?.code).toBe('upstream_bad_response');
  });

  it('names the path when the caller does not say what was asked', async () => {
    const error = await http()
      .getJson(`${fake.url}/broken`, { schema: bookSchema })
      .then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
    expect((error as Error).message).toContain('the /broken response');
  });
});
