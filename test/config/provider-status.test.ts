// `m3 config check` lists every provider of the one provider table: its driver, the variables
// naming its base URL and its key, and whether each is set, never a value.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { providerDefinitions } from '../../src/config/provider-definitions.js';
import { describeProviders, formatProviderLines } from '../../src/config/provider-status.js';
import { m3EntryArgs } from '../support/built-entry.js';
import { repoRoot } from '../support/shared-assets.js';

const keyValue = 'sk-planted-value-0123456789';
const baseUrlValue = 'http://user:pw@127.0.0.1:9/v1';

describe('describeProviders', () => {
  it('has one entry per row of the provider table, in its order, with each variable set or not', () => {
    const providers = describeProviders({ GOOGLE_API_KEY: 'g-key', OLLAMA_BASE_URL: baseUrlValue, OPENAI_API_KEY: ' ' });
    expect(providers.map((provider) => provider.name)).toEqual(Object.keys(providerDefinitions));
    const byName = new Map(providers.map((provider) => [provider.name, provider]));
    expect(byName.get('replay')).toMatchObject({ driver: 'replay' });
    expect(byName.get('replay')?.endpoint).toBeUndefined();
    expect(byName.get('gemini')?.endpoint?.keyVariables).toEqual([
      { name: 'GEMINI_API_KEY', set: false },
      { name: 'GOOGLE_API_KEY', set: true },
    ]);
    expect(byName.get('google')).toMatchObject({ driver: 'gemini', endpointOf: 'gemini', endpoint: { missingKey: false } });
    // A blank value is not a key.
    expect(byName.get('openai')?.endpoint).toMatchObject({ keyVariables: [{ name: 'OPENAI_API_KEY', set: false }], missingKey: true });
    expect(byName.get('openai-responses')).toMatchObject({ driver: 'responses', endpointOf: 'openai', endpoint: { missingKey: true } });
    expect(byName.get('ollama')?.endpoint).toMatchObject({ baseUrlVariables: [{ name: 'OLLAMA_BASE_URL', set: true }], keyRequired: false, missingKey: false });
    const text = formatProviderLines(providers).join('\n');
    expect(text).toContain('OLLAMA_BASE_URL (set)');
    expect(text).not.toContain(baseUrlValue);
    expect(text).not.toContain('g-key');
  });
});

describe('m3 config check', () => {
  const check = (args: string[]) =>
    spawnSync(process.execPath, [...m3EntryArgs(), 'config', 'check', ...args], {
      cwd: repoRoot,
      env: { ...process.env, ANTHROPIC_API_KEY: keyValue, VLLM_BASE_URL: baseUrlValue },
      encoding: 'utf8',
    });

  it('prints every provider with its variables set or not, and no value', () => {
    const text = check([]);
    expect(text.status, text.stderr).toBe(0);
    for (const name of Object.keys(providerDefinitions)) expect(text.stdout).toMatch(new RegExp(`^ {2}${name} +\\S`, 'm'));
    expect(text.stdout).toMatch(
      /^ {2}anthropic +anthropic +base URL ANTHROPIC_BASE_URL \(\w[\w ]*\) else https:\/\/api\.anthropic\.com; key required: ANTHROPIC_API_KEY \(set\)$/m,
    );
    expect(text.stdout).toContain('VLLM_BASE_URL (set)');
    expect(`${text.stdout}${text.stderr}`).not.toContain(keyValue);
    expect(`${text.stdout}${text.stderr}`).not.toContain(baseUrlValue);

    const json = check(['--json']);
    expect(json.status, json.stderr).toBe(0);
    expect(json.stdout).not.toContain(keyValue);
    const parsed = JSON.parse(json.stdout) as {
      providers: Array<{ name: string; driver: string; endpoint?: { keyVariables: Array<{ name: string; set: boolean }> } }>;
    };
    expect(parsed.providers.map((provider) => provider.name)).toEqual(Object.keys(providerDefinitions));
    expect(parsed.providers.find((provider) => provider.name === 'anthropic')?.endpoint?.keyVariables).toEqual([{ name: 'ANTHROPIC_API_KEY', set: true }]);
  }, 120_000);
});
