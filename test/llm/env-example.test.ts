// .env.example must name every provider variable and every M3_* switch the code reads.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { endpointDefinitions } from '../../src/config/providers.js';
import { switchNames } from '../../src/config/switches.js';
import { repoRoot } from '../support/shared-assets.js';

describe('.env.example', () => {
  const text = readFileSync(`${repoRoot}/.env.example`, 'utf8');
  const listed = new Set([...text.matchAll(/^# ([A-Z][A-Z0-9_]+)=/gm)].map((match) => match[1]));

  it('lists every provider key and base URL variable', () => {
    const variables = Object.values(endpointDefinitions).flatMap((definition) => [...definition.keyVariables, ...definition.baseUrlVariables]);
    expect(variables.filter((name) => !listed.has(name))).toEqual([]);
  });

  it('lists every M3_* switch and the price table', () => {
    expect([...switchNames, 'M3_PRICE_TABLE', 'M3_LOG_LEVEL'].filter((name) => !listed.has(name))).toEqual([]);
  });
});
