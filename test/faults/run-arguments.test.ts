// `m3 run` refuses bad provider arguments before it starts anything: a temperature that is not
// a number (it was sent as null), a model without its provider (it listed only `replay`), and a
// provider whose key is missing (every server used to start first, failing seconds later).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { knownProviders } from '../../src/llm/provider-table.js';
import { runM3, taskFolder } from './run-child.js';

const serversStarted = (results: string) => existsSync(path.join(results, 'logs')) || existsSync(path.join(results, 'tools_catalog.json'));

describe('m3 run argument faults', () => {
  it('--temperature abc is refused', async () => {
    const folder = taskFolder('temperature', [{ id: 't1', image: 'none.png' }]);
    const run = await runM3(['run', '--model', 'replay:gt', '--temperature', 'abc', ...folder.args], {});
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`option '--temperature <t>' argument 'abc' is invalid. expected a number >= 0, got "abc"`);
    expect(serversStarted(folder.results)).toBe(false);
  }, 60_000);

  it('--model gpt-4o names every provider and asks for provider:model', async () => {
    const folder = taskFolder('bare-model', [{ id: 't1', image: 'none.png' }]);
    const run = await runM3(['run', '--model', 'gpt-4o', ...folder.args], {});
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('did you mean openai:gpt-4o?');
    for (const provider of knownProviders) expect(run.stderr).toContain(provider);
    expect(serversStarted(folder.results)).toBe(false);
  }, 60_000);

  it('a provider without its key fails before any server starts, naming the variable', async () => {
    const folder = taskFolder('no-key', [{ id: 't1', image: 'none.png' }]);
    const run = await runM3(['run', '--model', 'deepseek:deepseek-chat', ...folder.args], {});
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('DEEPSEEK_API_KEY');
    expect(serversStarted(folder.results)).toBe(false);
  }, 60_000);
});
