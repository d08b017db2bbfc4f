// The static provider table: every provider is known without loading any vendor module, and a
// bare model name is refused with the full list and a provider:model suggestion.
import { describe, expect, it } from 'vitest';
import { endpointDefinitions } from '../../src/config/providers.js';
import { chatPresets } from '../../src/llm/presets.js';
import { knownProviders, providerTable } from '../../src/llm/provider-table.js';
import { createDriver, parseModelSpec } from '../../src/llm/registry.js';

describe('provider table', () => {
  it('lists every provider, and every chat preset and endpoint has an entry', () => {
    for (const name of Object.keys(chatPresets)) expect(providerTable).toHaveProperty(name, expect.objectContaining({ kind: 'chat', endpoint: name }));
    for (const name of Object.keys(endpointDefinitions)) expect(knownProviders).toContain(name);
    expect(knownProviders).toEqual(expect.arrayContaining(['replay', 'openai-responses', 'google']));
  });

  it('refuses --model gpt-4o naming provider:model and every known provider', () => {
    let message = '';
    try {
      parseModelSpec('gpt-4o');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('did you mean openai:gpt-4o?');
    expect(message).toContain('provider:model');
    for (const name of knownProviders) expect(message).toContain(name);
  });

  it('suggests the vendor of other bare model names', () => {
    expect(() => parseModelSpec('claude-sonnet-4-5')).toThrow(/did you mean anthropic:claude-sonnet-4-5\?/);
    expect(() => parseModelSpec('mystery-model')).toThrow(/every model needs its provider; known providers: anthropic, /);
  });

  it('creates drivers from the table without a registration step', async () => {
    const driver = await createDriver('google:gemini-2.5-flash', { env: { GEMINI_API_KEY: 'AIza-test-0123456789' }, timeoutMs: 1_000 });
    expect(driver.provider).toBe('gemini');
  });
});
