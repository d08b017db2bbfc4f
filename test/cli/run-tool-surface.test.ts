// `m3 run --tool-surface reference:<catalog>` (in this process: test/support/m3-in-process.ts)
// against the wire-level mock LLM and the real math server: the model is offered exactly the
// catalog's tools with the catalog's descriptions and schemas (seen on the wire), and the manifest
// names the surface, its catalog and its hash; the default run offers every tool and records
// `m3bench`.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlm } from '../support/mock-llm/index.js';
import { repoRoot } from '../support/shared-assets.js';
import { nodeEntryArgs } from '../support/built-entry.js';
import { runM3InProcess } from '../support/m3-in-process.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-run-surface-'));
const configFile = path.join(dir, 'servers.json');
const catalogFile = path.join(dir, 'catalog.json');
const tasksFile = path.join(repoRoot, 'test/fixtures/tasks/math-gt.json');
let mock: MockLlm;

const numbers = { type: 'object', properties: { numbers: { type: 'array', items: { type: 'number' } } }, required: ['numbers'] };

beforeAll(async () => {
  mock = await startMockLlm({ fallback: { text: 'The median is 6.5.', usage: { inputTokens: 100, outputTokens: 10 } } });
  writeFileSync(configFile, JSON.stringify({ servers: { math: { command: 'node', args: nodeEntryArgs('servers/math/index.ts'), env: {} } } }));
  writeFileSync(
    catalogFile,
    JSON.stringify({
      servers: {
        math: {
          enabled: true,
          tools: { median: { description: 'Catalog median text.', input_schema: numbers }, mode: { description: 'Catalog mode text.', input_schema: numbers } },
        },
      },
    }),
  );
});
afterAll(async () => {
  await mock?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** `m3 run` in this process (test/support/m3-in-process.ts), in a clean environment as a child given only these variables. */
async function runCli(resultsDir: string, extra: string[]): Promise<{ code: number | null; output: string }> {
  const args = ['run', '--model', 'openai:mock-model', '--tasks', tasksFile, '--config', configFile];
  const env = { M3_LLM_MAX_RETRIES: '0', OPENAI_BASE_URL: mock.openAiBaseUrl, OPENAI_API_KEY: 'sk-test-openai-key-000000000000' };
  const { code, output } = await runM3InProcess([...args, '--run-dir', resultsDir, '--overwrite', '--concurrency', '1', ...extra], env, { cleanEnv: true });
  return { code, output };
}

type Body = { tools?: Array<{ function: { name: string; description: string; parameters: unknown } }> };
const offeredOn = (bodies: Body[]) => bodies.map((body) => (body.tools ?? []).map((tool) => tool.function));

describe('m3 run --tool-surface', () => {
  it('offers exactly the catalog tools under reference:<file> and records the surface in the manifest', async () => {
    const resultsDir = path.join(dir, 'reference');
    const { code, output } = await runCli(resultsDir, ['--tool-surface', `reference:${catalogFile}`]);
    expect(code, output).toBe(0);
    const offered = offeredOn(mock.generations().map((request) => request.body as Body));
    expect(offered.length).toBeGreaterThan(0);
    for (const tools of offered) {
      expect(tools).toEqual([
        { name: 'math__median', description: 'Catalog median text.', parameters: expect.objectContaining({ properties: numbers.properties }) },
        { name: 'math__mode', description: 'Catalog mode text.', parameters: expect.objectContaining({ properties: numbers.properties }) },
      ]);
    }
    const manifest = JSON.parse(readFileSync(path.join(resultsDir, 'mock-model_test_mcp_fuzzy.manifest.json'), 'utf8'));
    expect(manifest.toolSurface).toEqual({ name: 'reference', hash: manifest.toolsHash, catalogFile });
    expect(manifest.tools).toEqual([expect.objectContaining({ server: 'math', toolCount: 2 })]);
  }, 300_000);

  it('offers every tool by default and records the m3bench surface', async () => {
    const resultsDir = path.join(dir, 'full');
    const before = mock.generations().length;
    const { code, output } = await runCli(resultsDir, []);
    expect(code, output).toBe(0);
    const offered = offeredOn(
      mock
        .generations()
        .slice(before)
        .map((request) => request.body as Body),
    );
    expect(offered[0]?.length).toBe(22);
    const manifest = JSON.parse(readFileSync(path.join(resultsDir, 'mock-model_test_mcp_fuzzy.manifest.json'), 'utf8'));
    expect(manifest.toolSurface).toEqual({ name: 'm3bench', hash: manifest.toolsHash });
  }, 300_000);

  it('refuses an unknown surface before anything starts', async () => {
    const { code, output } = await runCli(path.join(dir, 'bad'), ['--tool-surface', 'paper']);
    expect(code).toBe(2);
    expect(output).toContain('--tool-surface: expected m3bench, reference or reference:<catalog file>, got "paper"');
  }, 300_000);
});
