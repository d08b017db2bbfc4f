// scripts/trials_gate.sh end to end, as the benchmark-gate workflow runs it: a real bash child
// running `m3 run --trials 2` twice over the real math server (a small task file via M3_TASKS and
// M3_SERVERS), `m3 eval batch`, `m3 summary` and `m3 gate`, writing the gate verdict and the
// GitHub step outputs. Identical runs pass (exit 0); a candidate with injected drops fails the
// gate (exit 1) against the first scenario's baseline batch (M3_BASELINE_BATCH: the same replay:gt
// runs need not run twice). The workflow file must parse and run only commands that exist.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCommand } from '../support/m3-child.js';
import { runM3InProcess } from '../support/m3-in-process.js';
import { repoRoot } from '../support/shared-assets.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-trials-gate-'));
const gtFile = path.join(dir, 'gt.json');
const add = (a: number, b: number) => ({ name: 'math/add', arguments: { firstNumber: a, secondNumber: b } });
writeFileSync(
  gtFile,
  JSON.stringify(
    Array.from({ length: 8 }, (_, index) => ({
      id: `g${index + 1}`,
      type: 'arith',
      question: `Add ${index} and ${index + 2}, then add 1 to the result.`,
      steps: [
        { step: 1, calls: [add(index, index + 2)] },
        { step: 2, calls: [add(2 * index + 2, 1)] },
      ],
      final_reply: `The result is ${2 * index + 3}.`,
    })),
  ),
);

async function gate(id: string, candidate: string, extraEnv: Record<string, string> = {}) {
  const outputs = path.join(dir, `${id}.outputs`);
  const env = {
    ...extraEnv,
    // M3_TEST_FROM_SOURCE=1 keeps the scripts' m3 on the source too (else lib.sh decides).
    ...(process.env.M3_TEST_FROM_SOURCE === '1' ? { M3_USE_DIST: '0' } : {}),
    M3_TASKS: gtFile,
    M3_GT: gtFile,
    M3_SERVERS: 'math',
    M3_TRIALS: '2',
    M3_BASELINE: 'replay:gt',
    M3_CANDIDATE: candidate,
    M3_MAX_DROP: '0.02',
    M3_BATCH_ID: id,
    M3_BATCH_ROOT: path.join(dir, 'batches'),
    M3_STORE: path.join(dir, 'store.sqlite'),
    M3_SAVE: path.join(dir, 'save'),
    GITHUB_OUTPUT: outputs,
    M3_WORKSPACE_MODE: 'isolated',
  };
  const outcome = await runCommand('bash', ['scripts/trials_gate.sh'], env);
  const stepOutputs = Object.fromEntries(
    (existsSync(outputs) ? readFileSync(outputs, 'utf8') : '')
      .split('\n')
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  ) as Record<string, string>;
  return { outcome, stepOutputs };
}

describe('scripts/trials_gate.sh', { timeout: 900_000 }, () => {
  it('passes identical runs with pass rate 1 and names the gate report', async () => {
    const { outcome, stepOutputs } = await gate('same', 'replay:gt');
    expect(outcome.code, outcome.output).toBe(0);
    expect(outcome.stdout).toMatch(/replay-gt\s+8\s+2\s+1\.000 \[1\.000, 1\.000\]/);
    expect(outcome.stdout).toContain('gate: PASS');
    expect(stepOutputs).toMatchObject({ pass_rate: '1', gate_passed: 'true', report: path.join(dir, 'batches', 'same-gate.json') });
    const report = JSON.parse(readFileSync(stepOutputs.report ?? '', 'utf8')) as { passed: boolean; candidatePassRate: number };
    expect(report).toMatchObject({ passed: true, candidatePassRate: 1 });
    expect(existsSync(path.join(dir, 'batches', 'same-candidate', 'same-candidate.batch.json'))).toBe(true);
  });

  // Runs after the test above (tests of a file run in order), against the baseline batch it wrote.
  it('fails the gate (exit 1) on a candidate with injected drops, and says why', async () => {
    const baselineBatch = path.join(dir, 'batches', 'same-baseline', 'same-baseline.batch.json');
    expect(existsSync(baselineBatch)).toBe(true);
    const { outcome, stepOutputs } = await gate('drops', 'replay:noisy?seed=5&drop=0.5&noise=0&wrong=0', { M3_BASELINE_BATCH: baselineBatch });
    expect(outcome.code, outcome.output).toBe(1);
    // The baseline was not run again.
    expect(existsSync(path.join(dir, 'batches', 'drops-baseline'))).toBe(false);
    expect(outcome.stdout).toMatch(/gate: FAIL\n {2}- pass dropped by 0\.\d{3} \(> max drop 0\.02\)/);
    expect(stepOutputs.gate_passed).toBe('false');
    expect(Number(stepOutputs.pass_rate)).toBeLessThan(1);
  });
});

describe('.github/workflows/benchmark-gate.yml', () => {
  const workflow = parse(readFileSync(path.join(repoRoot, '.github/workflows/benchmark-gate.yml'), 'utf8')) as {
    on: Record<string, unknown>;
    jobs: Record<string, { steps: Array<{ run?: string; uses?: string }>; outputs?: Record<string, string> }>;
  };
  const packageJson = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> };

  it('parses, runs on a schedule, and exposes the gate outputs', () => {
    expect(Object.keys(workflow.on)).toEqual(expect.arrayContaining(['schedule', 'workflow_dispatch']));
    expect(Object.keys(workflow.jobs.gate?.outputs ?? {}).sort()).toEqual(['gate_passed', 'pass_rate', 'report']);
  });

  it('runs only commands that exist: npm ci with a lock file, package.json scripts, and scripts/ files', async () => {
    const commands = Object.values(workflow.jobs).flatMap((job) => job.steps.flatMap((step) => (step.run ? step.run.split('\n').filter(Boolean) : [])));
    expect(commands.length).toBeGreaterThan(0);
    for (const command of commands) {
      const [tool, verb, target] = command.trim().split(/\s+/);
      if (tool === 'npm' && verb === 'ci') expect(existsSync(path.join(repoRoot, 'package-lock.json'))).toBe(true);
      else if (tool === 'npm' && verb === 'run') expect(packageJson.scripts, command).toHaveProperty(target ?? '');
      else if (tool === 'bash') expect(existsSync(path.join(repoRoot, verb ?? '')), command).toBe(true);
      else throw new Error(`benchmark-gate.yml runs an unchecked command: ${command}`);
    }
    // Every m3 command the script calls exists in the CLI.
    const script = readFileSync(path.join(repoRoot, 'scripts/trials_gate.sh'), 'utf8');
    const subcommands = [...new Set([...script.matchAll(/^\s*(?:\w+=\$\()?m3 ([a-z]+(?: batch)?)/gm)].map((match) => match[1] ?? ''))];
    expect(subcommands.sort()).toEqual(['eval batch', 'gate', 'run', 'summary']);
    // In this process (test/support/m3-in-process.ts, calls one after another): the program and
    // its help are the point, not a process start per command.
    for (const subcommand of subcommands) {
      const help = await runM3InProcess([...subcommand.split(' '), '--help']);
      expect(help.code, `m3 ${subcommand} --help: ${help.output}`).toBe(0);
      expect(help.stdout, `m3 ${subcommand} --help`).toContain(`Usage: m3 ${subcommand}`);
    }
  }, 600_000);
});
