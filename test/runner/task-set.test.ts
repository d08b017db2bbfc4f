import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TaskFileError } from '../../src/errors/index.js';
import { loadTaskSet, parseShard, selectShard, serversNeeded } from '../../src/runner/task-set.js';
import { sharedDataDir } from '../support/shared-assets.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-tasks-'));
function write(name: string, value: unknown | string): string {
  const file = path.join(dir, name);
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  return file;
}

const gt = [
  {
    id: '001',
    image: 'a.png',
    type: 't',
    question: 'explicit 1',
    steps: [{ step: 1, calls: [{ name: 'math/add', arguments: { firstNumber: 1, secondNumber: 2 } }] }],
    final_reply: '3',
  },
  {
    id: '002',
    question: 'explicit 2',
    steps: [
      {
        step: 1,
        calls: [
          { name: 'wiki/summary', arguments: { title: 'x' } },
          { name: 'math/mean', arguments: { numbers: [1] } },
        ],
      },
    ],
    final_reply: 'x',
  },
];

describe('task sets', () => {
  it('joins fuzzy tasks with ground truth and uses the fuzzy question', () => {
    const tasksFile = write('tasks.json', [
      { id: '001', image: 'a.png', type: 't', prompt: 'use math/add', question: 'what is one plus two?' },
      { id: '003', prompt: 'p3', question: 'q3' },
    ]);
    const set = loadTaskSet({ tasksFile, gtFile: write('gt.json', gt), fuzzy: true });
    expect(set.tasks.map((task) => [task.id, task.question])).toEqual([
      ['001', 'what is one plus two?'],
      ['003', 'q3'],
    ]);
    expect(set.groundTruth.get('002')?.steps[0]?.calls).toHaveLength(2);
    expect(set.warnings.join('\n')).toContain('1 task(s) have no ground truth');
    const explicit = loadTaskSet({ tasksFile, fuzzy: false });
    expect(explicit.tasks[0]?.question).toBe('use math/add');
  });

  it('reads a combined file that carries both tasks and ground truth', () => {
    const set = loadTaskSet({ tasksFile: write('combined.json', gt), fuzzy: true });
    expect(set.gtFile).toBe(set.tasksFile);
    expect(set.tasks.map((task) => task.question)).toEqual(['explicit 1', 'explicit 2']);
    expect(serversNeeded(set.groundTruth.get('002'))).toEqual(['wiki', 'math']);
  });

  it('names the file, line and column of malformed JSON', () => {
    const file = write('broken.json', '[\n  {"id": "1", "question": "q"},\n  {"id": "2" "question": "q"}\n]');
    expect(() => loadTaskSet({ tasksFile: file, fuzzy: true })).toThrowError(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:3:14: invalid JSON`));
  });

  it('names the record and field of a schema error', () => {
    const file = write('bad-field.json', [
      { id: '1', question: 'q' },
      { id: '2', question: 42 },
    ]);
    expect(() => loadTaskSet({ tasksFile: file, fuzzy: true })).toThrowError(/at \$\[1\]\.question: /);
    const empty = write('empty-question.json', [{ id: '9', prompt: '' }]);
    expect(() => loadTaskSet({ tasksFile: empty, fuzzy: true })).toThrowError(TaskFileError);
  });

  it('slices shards deterministically and completely', () => {
    const tasks = ['05', '01', '04', '02', '03'].map((id) => ({ id }));
    const shards = [1, 2, 3].map((index) => selectShard(tasks, { index, count: 3 }).map((task) => task.id));
    expect(shards).toEqual([['01', '04'], ['02', '05'], ['03']]);
    expect(() => parseShard('4/3')).toThrowError(/--shard "4\/3"/);
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
  });

  // Skipped (visibly) without ../shared/data; in CI the data must be there.
  it.skipIf(!sharedDataDir() && !process.env.CI)('loads the real M3-Bench files with their duplicate ids reported', () => {
    const data = sharedDataDir();
    if (!data) throw new Error('../shared/data/m3bench/test_mcp_GT.json not found (CI must have the shared data)');
    const set = loadTaskSet({ tasksFile: path.join(data, 'tasks_fuzzy.json'), gtFile: path.join(data, 'test_mcp_GT.json'), fuzzy: true });
    expect(set.groundTruth.size).toBe(208);
    expect(set.tasks).toHaveLength(141);
    expect(set.warnings.join('\n')).toContain('00070008');
  });
});

describe('MCP-Universe task files in a task set', () => {
  const universe = {
    category: 'general',
    question: 'Weather in Paris?',
    mcp_servers: [{ name: 'weather' }],
    evaluators: [{ func: 'json -> get(city)', op: '=', value: 'Paris' }],
  };

  it('load as written, named by their file, and mix with an M3-Bench task file', () => {
    const tasksFile = write('mixed-tasks.json', [{ id: '001', question: 'one plus two?' }]);
    const set = loadTaskSet({
      tasksFile,
      extraTaskFiles: [write('paris.json', { ...universe, output_format: { city: '<City>' } })],
      gtFile: write('gt-mixed.json', gt),
      fuzzy: true,
    });
    expect(set.tasks.map((task) => [task.id, task.universe?.servers ?? null])).toEqual([
      ['001', null],
      ['paris', ['weather']],
    ]);
    expect(set.tasks[1]?.question).toBe(
      'Weather in Paris?\n\nGive the final answer as JSON of this shape, replacing each <...> placeholder: {"city":"<City>"}',
    );
    expect(set.tasks[1]?.universe?.evaluators).toEqual([{ func: 'json -> get(city)', op: '=', value: 'Paris', target: 'answer' }]);
    expect(set.taskFiles).toHaveLength(2);
    // An MCP-Universe task has no ground truth: no "missing ground truth" warning for it.
    expect(set.warnings.some((warning) => warning.includes('paris'))).toBe(false);
  });

  it('names the file and the key of a bad field, and refuses an id used twice', () => {
    const bad = write('bad-universe.json', { ...universe, mcp_servers: [{ name: 3 }] });
    expect(() => loadTaskSet({ tasksFile: bad, fuzzy: true })).toThrow(/bad-universe\.json: at \$\.mcp_servers\[0\]\.name: Invalid input: expected string/);
    const noCategory = write('no-category.json', { question: 'q', mcp_servers: [], evaluators: 'all' });
    expect(() => loadTaskSet({ tasksFile: noCategory, fuzzy: true })).toThrow(TaskFileError);
    expect(() => loadTaskSet({ tasksFile: noCategory, fuzzy: true })).toThrow(/no-category\.json: at \$\.category: .*\n.*no-category\.json: at \$\.evaluators/);
    const twice = write('001.json', universe);
    expect(() => loadTaskSet({ tasksFile: write('plain.json', [{ id: '001', question: 'q' }]), extraTaskFiles: [twice], fuzzy: true })).toThrow(
      /001\.json: task id "001" is also in .*plain\.json/,
    );
  });
});
