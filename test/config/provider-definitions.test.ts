// The one provider table (src/config/provider-definitions.ts) is what every other listing derives
// from: the endpoints, the registry's table and the chat presets are computed from it, and the
// README's provider table names exactly its providers with their key variables.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ProviderDefinition, providerDefinitions } from '../../src/config/provider-definitions.js';
import { endpointDefinitions } from '../../src/config/providers.js';
import { chatPresets } from '../../src/llm/presets.js';
import { knownProviders, providerTable } from '../../src/llm/provider-table.js';
import { repoRoot } from '../support/shared-assets.js';

const rows = providerDefinitions as Record<string, ProviderDefinition>;

/** The README's provider table: first column's backticked names → the key column. */
function readmeProviderRows(): Map<string, string> {
  const lines = readFileSync(path.join(repoRoot, 'README.md'), 'utf8').split('\n');
  const start = lines.findIndex((line) => line.startsWith('| provider | example | key |'));
  expect(start, 'README.md has a "| provider | example | key | notes |" table').toBeGreaterThan(-1);
  const found = new Map<string, string>();
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const [, first = '', , key = ''] = line.split('|');
    if (first.includes('every provider')) continue;
    for (const match of first.matchAll(/`([^`]+)`/g)) found.set(match[1] as string, key);
  }
  return found;
}

describe('the provider table', () => {
  it('is where the endpoints, the registry and the chat presets come from', () => {
    expect(knownProviders).toEqual(Object.keys(rows).sort());
    expect(Object.keys(endpointDefinitions).sort()).toEqual(
      Object.keys(rows)
        .filter((name) => rows[name]?.endpoint)
        .sort(),
    );
    expect(Object.keys(chatPresets).sort()).toEqual(
      Object.keys(rows)
        .filter((name) => rows[name]?.kind === 'chat')
        .sort(),
    );
    expect(providerTable['openai-responses']).toMatchObject({ kind: 'responses', endpoint: 'openai' });
    expect(chatPresets.zhipu).toMatchObject({ imageUrl: 'base64', maxTokensField: 'max_tokens' });
  });

  it('matches the README: every provider but replay has a row naming its key variables', () => {
    const readme = readmeProviderRows();
    const documented = [...readme.keys()].sort();
    expect(documented).toEqual(
      Object.keys(rows)
        .filter((name) => name !== 'replay')
        .sort(),
    );
    for (const [name, row] of Object.entries(rows)) {
      const endpoint = row.endpoint;
      if (!endpoint) continue;
      const cell = readme.get(name) ?? '';
      if (endpoint.keyRequired) for (const variable of endpoint.keyVariables) expect(cell, `${name}: README key column`).toContain(`\`${variable}\``);
      else expect(cell, `${name}: README key column`).toMatch(/none \(optional `[A-Z_]+_API_KEY`\)/);
    }
  });
});
