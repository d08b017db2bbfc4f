// The Kubernetes manifest and the Slurm script in docs/running.md, read from the markdown so they
// cannot drift: the YAML parses into Indexed Job and merge Job, the script passes `bash -n`, every
// shard variable they name is one the code reads, every option their commands pass exists, and
// the environment each scheduler gives its workers resolves (through the code) to shards that
// cover the task set exactly once.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { registerMergeCommand } from '../../src/cli/commands/merge.js';
import { addRunOptions } from '../../src/cli/commands/run.js';
import { resolveShardOption, SHARD_VARIABLES } from '../../src/runner/shard-option.js';
import { selectShard } from '../../src/runner/task-set.js';
import { repoRoot } from '../support/shared-assets.js';

const markdown = readFileSync(path.join(repoRoot, 'docs', 'running.md'), 'utf8');
const sectionStart = markdown.indexOf('## A run over several machines');
const section = markdown.slice(sectionStart, markdown.indexOf('\n## ', sectionStart + 1));

function fenced(language: string): string[] {
  return [...section.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((match) => match[1] as string);
}

interface Container {
  env?: Array<{ name: string; value: string }>;
  args: string[];
  workingDir: string;
  volumeMounts: Array<{ name: string; mountPath: string }>;
}
interface JobDocument {
  kind: string;
  metadata: { name: string };
  spec: { completionMode?: string; completions?: number; parallelism?: number; template: { spec: { containers: Container[]; volumes: unknown[] } } };
}

const [yamlText] = fenced('yaml');
const [scriptText] = fenced('bash');

/** The m3 command line inside a container's `bash -c` argument or a script line: subcommand and its `--options`. */
function m3Options(commandLine: string): { command: string; options: string[] } {
  const after = commandLine.split('src/cli/main.ts')[1] ?? '';
  const [command = ''] = after.trim().split(/\s+/);
  return { command, options: [...after.matchAll(/(?<=\s)--[a-z-]+/g)].map((match) => match[0]) };
}

function knownOptions(command: string): string[] {
  if (command === 'run') return addRunOptions(new Command('run')).options.map((option) => option.long ?? '');
  const program = new Command();
  registerMergeCommand(program);
  return program.commands.find((entry) => entry.name() === command)?.options.map((option) => option.long ?? '') ?? [];
}

function expectKnownOptions(commandLine: string): void {
  const { command, options } = m3Options(commandLine);
  expect(['run', 'merge']).toContain(command);
  const known = knownOptions(command);
  for (const option of options) expect(known, `${command} ${option} in docs/running.md`).toContain(option);
}

const taskIds = Array.from({ length: 44 }, (_, position) => ({ id: `L${String(position + 1).padStart(4, '0')}` }));

function expectCover(shards: Array<{ index: number; count: number }>): void {
  const covered = shards.flatMap((shard) => selectShard(taskIds, shard).map((task) => task.id)).sort();
  expect(covered).toEqual(taskIds.map((task) => task.id));
}

describe('docs/running.md: the sharding recipes', () => {
  it('names only shard variables the code reads', () => {
    const named = new Set([...section.matchAll(/\b(M3_SHARD_[A-Z_]+|JOB_COMPLETION_INDEX|SLURM_ARRAY_TASK_[A-Z_]+)\b/g)].map((match) => match[1]));
    expect([...named].sort()).toEqual([...SHARD_VARIABLES].sort());
  });

  it('the Kubernetes manifest parses: an Indexed Job whose workers resolve to shards 1..n, and a merge Job on the same volume', () => {
    expect(yamlText).toBeDefined();
    const documents = parseAllDocuments(yamlText as string);
    for (const document of documents) expect(document.errors).toEqual([]);
    const [shards, merge] = documents.map((document) => document.toJS() as JobDocument);
    expect(shards?.kind).toBe('Job');
    expect(shards?.spec.completionMode).toBe('Indexed');
    const completions = shards?.spec.completions as number;
    const worker = shards?.spec.template.spec.containers[0] as Container;
    const env = Object.fromEntries((worker.env ?? []).map((entry) => [entry.name, entry.value]));
    const shardCommand = worker.args.join(' ');
    expectKnownOptions(shardCommand);
    const shardFlag = /--shard (\S+)/.exec(shardCommand)?.[1] as string;
    const resolved = Array.from({ length: completions }, (_, index) =>
      resolveShardOption(shardFlag, { ...env, JOB_COMPLETION_INDEX: String(index) }, env.M3_RUN_ID),
    );
    expect(resolved.map((shard) => `${shard?.index}/${shard?.count}`)).toEqual(
      Array.from({ length: completions }, (_, index) => `${index + 1}/${completions}`),
    );
    expectCover(resolved as Array<{ index: number; count: number }>);
    // Each worker its own results folder (and so its own store), all of them where the merge looks.
    const resultsDir = /--results-dir "([^"]+)"/.exec(shardCommand)?.[1] as string;
    expect(resultsDir).toContain('${JOB_COMPLETION_INDEX}');
    const mergeContainer = merge?.spec.template.spec.containers[0] as Container;
    const mergeCommand = mergeContainer.args.join(' ');
    expectKnownOptions(mergeCommand);
    expect(mergeCommand).toContain(`--from-store ${resultsDir.replace('${JOB_COMPLETION_INDEX}', '*')}/m3bench.sqlite`);
    expect(mergeContainer.workingDir).toBe(worker.workingDir);
    expect(mergeContainer.volumeMounts).toEqual(worker.volumeMounts);
    expect(merge?.spec.template.spec.volumes).toEqual(shards?.spec.template.spec.volumes);
  });

  it('the Slurm script passes bash -n, and every array task resolves to its own shard with a shared run id', () => {
    expect(scriptText).toBeDefined();
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'm3-docs-slurm-')), 'shard.sh');
    writeFileSync(file, scriptText as string);
    const check = spawnSync('bash', ['-n', file], { encoding: 'utf8' });
    expect(check.status, check.stderr).toBe(0);
    const [, first, last] = /#SBATCH --array=(\d+)-(\d+)\n/.exec(scriptText as string) ?? [];
    const runLine = (scriptText as string).replace(/\\\n/g, ' ');
    expectKnownOptions(runLine.split('\n').find((line) => line.includes('src/cli/main.ts')) as string);
    expect(runLine).toContain('--results-dir "results/shards/${SLURM_ARRAY_TASK_ID}"');
    const shardFlag = /--shard (\S+)/.exec(runLine)?.[1] as string;
    const runId = /export M3_RUN_ID="([^"]+)"/.exec(runLine)?.[1];
    expect(runId).toContain('${SLURM_ARRAY_JOB_ID}');
    const resolved = [];
    for (let id = Number(first); id <= Number(last); id += 1) {
      const env = { SLURM_ARRAY_TASK_ID: String(id), SLURM_ARRAY_TASK_MIN: String(first), SLURM_ARRAY_TASK_MAX: String(last) };
      resolved.push(resolveShardOption(shardFlag, env, runId?.replace('${SLURM_ARRAY_JOB_ID}', '4242')) as { index: number; count: number });
    }
    expect(resolved.map((shard) => shard.index)).toEqual(resolved.map((_, position) => position + 1));
    expectCover(resolved);
    expect(section).toContain('--from-store results/shards/*/m3bench.sqlite');
  });
});
