// The wire-level mock's destination rules come from the provider table
// (src/config/provider-definitions.ts), the rows the drivers build their requests from: every
// OpenAI-compatible destination accepts exactly the image types its row lists, and a value planted
// in a row changes what the mock enforces at the next request.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatDefaults, type ChatPreset, type ProviderDefinition, providerDefinitions } from '../../src/config/provider-definitions.js';
import { type MockLlm, startMockLlm } from '../support/mock-llm/index.js';
import { flavours, type Flavour } from '../support/mock-llm/wire-common.js';

const imageTypes = ['png', 'jpeg', 'webp', 'gif'] as const;
const images = new Map<string, string>();
let mock: MockLlm;

beforeAll(async () => {
  mock = await startMockLlm({ fallback: { text: 'ok' } });
  for (const format of imageTypes) {
    const base = sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 10, g: 200, b: 10 } } });
    const bytes = await base.toFormat(format).toBuffer();
    images.set(`image/${format}`, `data:image/${format};base64,${bytes.toString('base64')}`);
  }
});
afterAll(async () => {
  await mock.close();
});

/** The status the mock answers for one user turn with one image at `url` on the destination. */
async function statusFor(flavour: Flavour, url: string): Promise<number> {
  const response = await fetch(`${mock.baseUrlFor(flavour)}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test-0123456789' },
    body: JSON.stringify({
      model: 'test-model',
      max_tokens: 16,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look.' },
            { type: 'image_url', image_url: { url } },
          ],
        },
      ],
    }),
  });
  await response.arrayBuffer();
  return response.status;
}

const rowOf = (flavour: Flavour) => (providerDefinitions as Record<string, ProviderDefinition>)[flavour];
const presetOf = (flavour: Flavour): Omit<ChatPreset, 'name'> => ({ ...chatDefaults, ...rowOf(flavour)?.chat });

/** Sets one chat field of a row for the length of `body`, then puts the row back as it was. */
async function planted<K extends keyof ChatPreset>(flavour: Flavour, field: K, value: ChatPreset[K], body: () => Promise<void>): Promise<void> {
  const row = rowOf(flavour) as { chat?: Partial<ChatPreset> };
  const before = row.chat;
  row.chat = { ...before, [field]: value };
  try {
    await body();
  } finally {
    row.chat = before;
  }
}

describe('mock LLM rules from the provider definitions', () => {
  it('every OpenAI-compatible destination takes exactly the image types its row lists', async () => {
    for (const flavour of flavours) {
      const preset = presetOf(flavour);
      if (!preset.acceptsImages || preset.imageUrl !== 'data-url') continue;
      for (const [type, url] of images) {
        expect([flavour, type, await statusFor(flavour, url)]).toEqual([flavour, type, preset.imageTypes.includes(type) ? 200 : 400]);
      }
    }
  });

  it('a planted image type list, image transport or no-images flag is enforced at the next request', async () => {
    const webp = images.get('image/webp') ?? '';
    const png = images.get('image/png') ?? '';
    expect(await statusFor('together', webp)).toBe(200);
    await planted('together', 'imageTypes', ['image/png'], async () => {
      expect(await statusFor('together', webp)).toBe(400);
      expect(await statusFor('together', png)).toBe(200);
    });
    await planted('together', 'imageUrl', 'base64', async () => {
      expect(await statusFor('together', png)).toBe(400);
    });
    await planted('vllm', 'acceptsImages', false, async () => {
      expect(await statusFor('vllm', png)).toBe(400);
    });
    expect(await statusFor('together', webp)).toBe(200);
    expect(await statusFor('vllm', png)).toBe(200);
  });
});
