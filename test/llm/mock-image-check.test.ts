// The mock's image check (test/support/mock-llm/wire-common.ts), which every vendor's wire rules
// use: base64 with at most two `=` at the end, then the declared type's magic bytes. A request
// of several large images must be judged, not crash the handler (it once ran a regular
// expression over each whole image, which can exhaust V8's backtrack stack).
import { describe, expect, it } from 'vitest';
import { checkImage } from '../support/mock-llm/wire-common.js';

const pngHeader = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('mock LLM image check', () => {
  it('takes padded and unpadded base64 of a PNG and refuses other text', () => {
    const png = Buffer.concat([pngHeader, Buffer.from([1, 2])]).toString('base64');
    expect(png.endsWith('==')).toBe(true);
    expect(checkImage('image/png', png, 'm')).toBeUndefined();
    expect(checkImage('image/png', png.replace(/=+$/, ''), 'm')).toBeUndefined();
    for (const bad of ['', '=', '==', `${png}=`, 'iVBO=RK', 'iVBO RK', `${png}\n`, 'iVBO-_'])
      expect(checkImage('image/png', bad, 'm'), JSON.stringify(bad)).toBe('m: image data is not base64');
    expect(checkImage('image/jpeg', png, 'm')).toBe('m: image bytes are not image/jpeg');
  });

  it('judges a 20 MB base64 image in one call', () => {
    const big = Buffer.alloc(15 * 1024 * 1024, 7);
    pngHeader.copy(big);
    const data = big.toString('base64');
    expect(checkImage('image/png', data, 'm')).toBeUndefined();
    expect(checkImage('image/png', `${data.slice(0, -1)}!`, 'm')).toBe('m: image data is not base64');
  });
});
