// Redaction on the paths every writer uses: redactText (whose quick pre-check must never skip a
// string one of the credential patterns would match) and toRedactedJson's one-walk serialisation.
import { describe, expect, it } from 'vitest';
import { redactText, registerSecret, toRedactedJson } from '../../src/log/redact.js';

describe('redactText', () => {
  it('masks every credential pattern, in any letter case the pattern allows', () => {
    const cases: Array<[string, string]> = [
      ['key sk-abcdefghijklmnop1234 here', 'key [REDACTED] here'],
      ['sk-ant-abcdefghijklmnop1234', '[REDACTED]'],
      ['AIzaabcdefghijklmnopqrstuvwxyz0123456', '[REDACTED]'],
      ['xai-abcdefghijklmnopqrstu', '[REDACTED]'],
      ['https://x.test/a?KEY=abc&Token=def', 'https://x.test/a?KEY=[REDACTED]&Token=[REDACTED]'],
      ['https://x.test/a?api_key=abc&access_token=def', 'https://x.test/a?api_key=[REDACTED]&access_token=[REDACTED]'],
      ['AUTHORIZATION: Bearer abc123', 'AUTHORIZATION: [REDACTED]'],
      ['X-Goog-Api-Key: abc123', 'X-Goog-Api-Key: [REDACTED]'],
    ];
    for (const [text, masked] of cases) expect(redactText(text), text).toBe(masked);
  });

  it('leaves ordinary text alone and masks registered secrets anywhere', () => {
    expect(redactText('the sky is blue; 2 + 2 = 4')).toBe('the sky is blue; 2 + 2 = 4');
    registerSecret('hunter2-registered-value');
    expect(redactText('pw=hunter2-registered-value!')).toBe('pw=[REDACTED]!');
  });
});

describe('toRedactedJson', () => {
  class Holder {
    constructor(readonly note: string) {}
  }

  it('redacts strings and secret-named fields at any depth, inside non-plain objects too', () => {
    const value = { a: [{ token: 'plain', text: 'Authorization: Bearer zzz' }], held: new Holder('?key=abc'), list: ['password'], when: new Date(0) };
    expect(JSON.parse(toRedactedJson(value))).toEqual({
      a: [{ token: '[REDACTED]', text: 'Authorization: [REDACTED]' }],
      held: { note: '?key=[REDACTED]' },
      list: ['password'],
      when: '1970-01-01T00:00:00.000Z',
    });
  });

  it('applies `before` ahead of redaction and `rewrite` after it', () => {
    const text = toRedactedJson(
      { s: 'abc ?key=k1' },
      { before: (value) => value.replace('abc', 'xyz'), rewrite: (value) => value.replace('[REDACTED]', '<masked>') },
    );
    expect(JSON.parse(text)).toEqual({ s: 'xyz ?key=<masked>' });
  });
});
