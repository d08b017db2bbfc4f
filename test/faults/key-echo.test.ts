// A provider error that echoes the API key must not put the key in any output. `m3 run` runs (in
// the test's process, with a clean environment: run-child.ts) against the wire-level mock, whose
// 401 and 400 bodies quote the key the request carried (as some gateways do); then `m3 eval step`
// and `m3 report` run on what it wrote, and every file under the temporary tree (JSON, CSV, HTML,
// the SQLite file and its WAL as raw bytes, server logs) plus stdout and stderr is searched for
// the key. In one process the key the run registered stays registered for the two commands after
// it; what they read was written redacted, so they have no key to leak either way.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm, keyFingerprint, type MockLlm } from '../support/mock-llm/index.js';
import { filesUnder, runM3 } from './run-child.js';
import { nodeEntryArgs } from '../support/built-entry.js';

let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm();
});
afterAll(async () => {
  await mock?.close();
});

// Keys that match no credential pattern: only the registered-secret layer can catch them.
const vendors = [
  {
    name: 'openai',
    model: 'openai:mock-model',
    label: 'mock-model',
    key: 'k3y-openai-Zq8Pw2Lx7Vb4',
    env: (key: string) => ({ OPENAI_API_KEY: key, OPENAI_BASE_URL: mock.openAiBaseUrl }),
  },
  {
    name: 'anthropic',
    model: 'anthropic:claude-mock',
    label: 'claude-mock',
    key: 'k3y-anthropic-Hn5Rt9Ws',
    env: (key: string) => ({ ANTHROPIC_API_KEY: key, ANTHROPIC_BASE_URL: mock.url }),
  },
  {
    name: 'gemini',
    model: 'gemini:gemini-mock',
    label: 'gemini-mock',
    key: 'k3y-gemini-Qm3Jd8Ty',
    env: (key: string) => ({ GEMINI_API_KEY: key, GEMINI_BASE_URL: mock.url }),
  },
];

describe('a key echoed by provider errors reaches no output', () => {
  for (const vendor of vendors) {
    it(`${vendor.name}: 401 and 400 bodies quoting the key`, async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), `m3-key-echo-${vendor.name}-`));
      const results = path.join(dir, 'results');
      writeFileSync(
        path.join(dir, 'servers.json'),
        JSON.stringify({ servers: { math: { command: 'node', args: nodeEntryArgs('servers/math/index.ts'), env: {} } } }),
      );
      await sharp({ create: { width: 32, height: 24, channels: 3, background: '#36c' } })
        .png()
        .toFile(path.join(dir, 'chart.png'));
      const tasks = ['k1', 'k2'].map((id) => ({ id, image: 'chart.png', type: 'arith', prompt: 'use math', question: `What is 2+3? (${id})` }));
      writeFileSync(path.join(dir, 'tasks.json'), JSON.stringify(tasks));
      writeFileSync(
        path.join(dir, 'gt.json'),
        JSON.stringify(
          tasks.map((task) => ({
            ...task,
            final_reply: '5',
            steps: [{ step: 1, calls: [{ name: 'math/add', arguments: { firstNumber: 2, secondNumber: 3 } }] }],
          })),
        ),
      );
      mock.enqueue(
        { fault: { kind: 'status', status: 401, message: 'Incorrect API key provided: {credential}. You can find your API key at the console.' } },
        { fault: { kind: 'status', status: 400, message: 'Invalid request sent with key {credential}: unsupported field' } },
      );
      const before = mock.generations().length;
      const env = { ...vendor.env(vendor.key), M3_LLM_MAX_RETRIES: '0', M3_MAX_TASK_REQUEUE: '0', M3_WORKSPACE_MODE: 'isolated', M3_KEEP_WORKSPACE: '0' };
      const run = await runM3(
        [
          'run',
          '--model',
          vendor.model,
          '--tasks',
          path.join(dir, 'tasks.json'),
          '--config',
          path.join(dir, 'servers.json'),
          '--image-dir',
          dir,
          '--run-dir',
          results,
          '--store',
          path.join(results, 'm3bench.sqlite'),
          '--concurrency',
          '1',
        ],
        env,
      );
      const generations = mock.generations().slice(before);
      // The key did travel to the provider, and both errors came back quoting it.
      expect(generations.map((request) => request.authFingerprint)).toEqual([keyFingerprint(vendor.key), keyFingerprint(vendor.key)]);
      const outputs = [run.stdout, run.stderr];
      const predictions = path.join(results, `${vendor.label}_test_mcp_fuzzy.json`);
      if (existsSync(predictions)) {
        const evaluated = await runM3(
          ['eval', 'step', '--gt', path.join(dir, 'gt.json'), '--pred', predictions, '--output-dir', path.join(results, vendor.label)],
          env,
        );
        const report = await runM3(['report', '--results', results, '--save', path.join(dir, 'save'), '--gt', path.join(dir, 'gt.json')], env);
        outputs.push(evaluated.stdout, evaluated.stderr, report.stdout, report.stderr);
      }
      const written = filesUnder(dir);
      expect(written.some((file) => file.endsWith('.sqlite'))).toBe(true);
      expect(written.some((file) => file.endsWith('.manifest.json'))).toBe(true);
      const leaks = written.filter((file) => readFileSync(file).toString('latin1').includes(vendor.key));
      expect(leaks, `files holding the key: ${leaks.join(', ')}`).toEqual([]);
      for (const text of outputs) expect(text).not.toContain(vendor.key);
      // The failures are still reported, with the key masked.
      const manifest = JSON.parse(readFileSync(predictions.replace(/\.json$/, '.manifest.json'), 'utf8')) as { failures: Array<{ message: string }> };
      expect(manifest.failures.map((failure) => failure.message).join('\n')).toContain('[REDACTED]');
      expect(run.code, run.stderr).not.toBeNull();
    }, 180_000);
  }
});
