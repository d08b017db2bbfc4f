// Worked examples of each vendor's published image-token formula (src/media/vision-tokens.ts).
import { describe, expect, it } from 'vitest';
import { anthropicSeenSize, geminiTiles, openaiSeenSize, visionTokens } from '../../src/media/vision-tokens.js';
import { transportSize } from '../../src/media/transport-size.js';

describe('vision token estimates', () => {
  it('OpenAI high detail: fit 2048 x 2048, shortest side 768, 170 per 512-px tile + 85', () => {
    // OpenAI's own examples: 1024 x 1024 -> 768 x 768, 4 tiles = 765; 2048 x 4096 -> 768 x 1536, 6 tiles = 1105.
    expect(openaiSeenSize({ width: 1024, height: 1024 })).toEqual({ width: 768, height: 768 });
    expect(visionTokens('openai', { width: 1024, height: 1024 })).toBe(765);
    expect(openaiSeenSize({ width: 2048, height: 4096 })).toEqual({ width: 768, height: 1536 });
    expect(visionTokens('openai', { width: 2048, height: 4096 })).toBe(1105);
    // Small images are not enlarged: 500 x 300 is one tile.
    expect(visionTokens('openai', { width: 500, height: 300 })).toBe(255);
  });

  it('Anthropic: width * height / 750 after the 1568-px / ~1600-token resize', () => {
    // Their table: 1092 x 1092 is the largest square kept as is (~1590 tokens); 1000 x 1000 ~ 1334; 200 x 200 ~ 54.
    expect(anthropicSeenSize({ width: 1092, height: 1092 })).toEqual({ width: 1092, height: 1092 });
    expect(visionTokens('anthropic', { width: 1092, height: 1092 })).toBe(1590);
    expect(visionTokens('anthropic', { width: 1000, height: 1000 })).toBe(1334);
    expect(visionTokens('anthropic', { width: 200, height: 200 })).toBe(54);
    // 4000 x 3000 is scaled to the 1568 edge, then to ~1.2 MP: never above 1600 tokens.
    const seen = anthropicSeenSize({ width: 4000, height: 3000 });
    expect(Math.max(seen.width, seen.height)).toBeLessThanOrEqual(1568);
    expect(visionTokens('anthropic', { width: 4000, height: 3000 })).toBeLessThanOrEqual(1600);
    expect(visionTokens('anthropic', { width: 4000, height: 3000 })).toBeGreaterThan(1590);
  });

  it('Gemini: 258 for both sides <= 384, else 258 per crop of shortest side / 1.5', () => {
    expect(visionTokens('gemini', { width: 384, height: 384 })).toBe(258);
    expect(visionTokens('gemini', { width: 384, height: 200 })).toBe(258);
    // 1024 x 768: crop 512, 2 x 2 tiles. 960 x 540: crop 360, 3 x 2 tiles. Scale does not change the count.
    expect(geminiTiles({ width: 1024, height: 768 })).toBe(4);
    expect(visionTokens('gemini', { width: 1024, height: 768 })).toBe(1032);
    expect(visionTokens('gemini', { width: 960, height: 540 })).toBe(1548);
    expect(visionTokens('gemini', { width: 1920, height: 1080 })).toBe(1548);
  });

  it('sizes for transport: never above what the vendor keeps; photos at a 768 short side (not for Gemini); a small shrink saves tiles', () => {
    const openai = { vendor: 'openai' as const, accepts: ['image/png'] };
    const gemini = { vendor: 'gemini' as const, accepts: ['image/png'] };
    const anthropic = { vendor: 'anthropic' as const, accepts: ['image/png'] };
    expect(transportSize({ width: 2250, height: 1500 }, 'graphic', openai, 0)).toEqual({ width: 1152, height: 768 });
    // 1080 x 720 costs 3 x 2 tiles; 1024 x 682 (5 % smaller) costs 2 x 2.
    const snapped = transportSize({ width: 1080, height: 720 }, 'graphic', openai, 0);
    expect(snapped.width).toBe(1024);
    expect(visionTokens('openai', snapped)).toBeLessThan(visionTokens('openai', { width: 1080, height: 720 }));
    // Gemini: 400 x 300 is 4 tiles; 384 x 288 is one.
    expect(transportSize({ width: 400, height: 300 }, 'photo', gemini, 0)).toEqual({ width: 384, height: 288 });
    // A 1352 x 900 photo: short side 768 for OpenAI and Anthropic; a screenshot keeps Anthropic's full budget.
    expect(transportSize({ width: 1352, height: 900 }, 'photo', anthropic, 1568)).toEqual({ width: 1154, height: 768 });
    // Gemini's tokens do not depend on the size: a photo keeps the detail Gemini keeps (short side 1152).
    expect(transportSize({ width: 2250, height: 1500 }, 'photo', gemini, 0)).toEqual({ width: 1728, height: 1152 });
    expect(visionTokens('gemini', { width: 1728, height: 1152 })).toBe(visionTokens('gemini', { width: 1152, height: 768 }));
    expect(transportSize({ width: 1352, height: 900 }, 'graphic', anthropic, 1568)).toEqual(anthropicSeenSize({ width: 1352, height: 900 }));
  });
});
