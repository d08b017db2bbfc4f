// Reading an upstream's text body (servers/shared/http-body.ts): the one place a body that cannot
// be read becomes upstream_bad_response, for the client's own JSON answers and for the servers
// that fetch text first (NASA, nixhub, Yahoo, paper_search's XML feeds).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJsonText, readUpstreamText } from '../../../servers/shared/http-body.js';
import { createHttpClient } from '../../../servers/shared/http-client.js';
import { startHttpFake, type HttpFake } from '../../../servers/shared/http-fake.js';
import { isJsonNumber } from '../../../servers/shared/python-format.js';
import { UpstreamError } from '../../../servers/shared/upstream-error.js';

const secret = 'k3y-0f-the-caller-42';

function thrown(work: () => unknown): UpstreamError {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(UpstreamError);
    return error as UpstreamError;
  }
  throw new Error('expected a throw');
}

describe('parseJsonText', () => {
  it('parses JSON, and keeps number literals when asked', () => {
    expect(parseJsonText({ text: '{"price": 643.0}', upstream: 'example.org' })).toEqual({ price: 643 });
    const lossless = parseJsonText({ text: '{"price": 643.0}', upstream: 'example.org' }, { lossless: true }) as { price: unknown };
    expect(isJsonNumber(lossless.price) && lossless.price.value).toBe('643.0');
  });

  it('a body that is not JSON is upstream_bad_response naming the upstream and status, the secrets removed', () => {
    const error = thrown(() => parseJsonText({ text: `<html>bad key ${secret}</html>`, upstream: 'api.example.org', status: 200, secrets: [secret] }));
    expect(error).toMatchObject({ code: 'upstream_bad_response', upstream: 'api.example.org', status: 200 });
    expect(error.message).toBe('api.example.org answered HTTP 200 with a body that is not JSON: <html>bad key [redacted]</html>');
    expect(thrown(() => parseJsonText({ text: '', upstream: 'api.example.org' })).message).toBe('api.example.org answered with a body that is not JSON: ');
  });

  it('words the failure as the caller describes it, still redacted', () => {
    const error = thrown(() =>
      parseJsonText(
        { text: `{"key": "${secret}"`, upstream: 'www.nixhub.io', secrets: [secret] },
        { lossless: true, describe: ({ text }) => `Failed: ${text}` },
      ),
    );
    expect(error.message).toBe('Failed: {"key": "[redacted]"');
    expect(error.code).toBe('upstream_bad_response');
  });
});

describe('readUpstreamText', () => {
  it('returns what the reader returns, and turns what it throws into upstream_bad_response with its reason', () => {
    const read = (text: string) => {
      if (!text.startsWith('<feed')) throw new Error('no feed element');
      return text.length;
    };
    expect(readUpstreamText({ text: '<feed/>', upstream: 'export.arxiv.org' }, read, () => 'unused')).toBe(7);
    const error = thrown(() => readUpstreamText({ text: 'oops', upstream: 'export.arxiv.org', status: 200 }, read, ({ reason }) => `not XML (${reason})`));
    expect(error).toMatchObject({ code: 'upstream_bad_response', upstream: 'export.arxiv.org', status: 200, message: 'not XML (no feed element)' });
  });
});

describe('the shared client reads its JSON answers through it', () => {
  let fake: HttpFake;
  beforeAll(async () => {
    fake = await startHttpFake([
      { path: '/echo', reply: (request) => ({ body: `maintenance for ${request.query.api_key ?? ''}`, headers: { 'content-type': 'text/plain' } }) },
      { path: '/empty', reply: { body: '', headers: { 'content-type': 'application/json' } } },
    ]);
  });
  afterAll(() => fake.close());
  const http = () => createHttpClient({ server: 'test', retries: 0, env: {} });

  it('a body that is not JSON fails with the key the request carried removed', async () => {
    const error = await http()
      .getJson(`${fake.url}/echo`, { query: { api_key: secret } })
      .then(
        () => undefined,
        (failure: unknown) => failure,
      );
    expect(error).toMatchObject({ code: 'upstream_bad_response', status: 200, upstream: '127.0.0.1' });
    expect((error as Error).message).toBe('127.0.0.1 answered HTTP 200 with a body that is not JSON: maintenance for [redacted]');
  });

  it('an empty body is null, not a failure', async () => {
    expect((await http().getJson(`${fake.url}/empty`)).body).toBeNull();
  });
});
