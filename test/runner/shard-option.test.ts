import { describe, expect, it } from 'vitest';
import { resolveAutoShard, resolveShardOption } from '../../src/runner/shard-option.js';
import { selectShard } from '../../src/runner/task-set.js';

const pick = (text: string, env: Record<string, string>) => {
  const { index, count } = resolveAutoShard(text, env);
  return `${index}/${count}`;
};

describe('--shard auto', () => {
  it('reads a Kubernetes Indexed Job (0-based JOB_COMPLETION_INDEX) with the count from auto/N or M3_SHARD_COUNT', () => {
    expect(pick('auto/3', { JOB_COMPLETION_INDEX: '0' })).toBe('1/3');
    expect(pick('auto', { JOB_COMPLETION_INDEX: '2', M3_SHARD_COUNT: '3' })).toBe('3/3');
    expect(resolveAutoShard('auto/3', { JOB_COMPLETION_INDEX: '1' }).source).toBe(
      'JOB_COMPLETION_INDEX=1 (Kubernetes Indexed Job, 0-based), count from --shard auto/3',
    );
  });

  it('reads a Slurm array from its range, with steps, or from SLURM_ARRAY_TASK_COUNT', () => {
    const range = { SLURM_ARRAY_TASK_MIN: '1', SLURM_ARRAY_TASK_MAX: '4' };
    expect(pick('auto', { ...range, SLURM_ARRAY_TASK_ID: '1' })).toBe('1/4');
    expect(pick('auto', { ...range, SLURM_ARRAY_TASK_ID: '4', SLURM_ARRAY_TASK_COUNT: '4' })).toBe('4/4');
    expect(pick('auto', { SLURM_ARRAY_TASK_MIN: '0', SLURM_ARRAY_TASK_MAX: '10', SLURM_ARRAY_TASK_STEP: '5', SLURM_ARRAY_TASK_ID: '5' })).toBe('2/3');
    expect(pick('auto', { SLURM_ARRAY_TASK_ID: '2', SLURM_ARRAY_TASK_COUNT: '3' })).toBe('3/3');
    expect(resolveAutoShard('auto', { ...range, SLURM_ARRAY_TASK_ID: '2' }).source).toBe(
      'SLURM_ARRAY_TASK_ID=2 (Slurm job array; SLURM_ARRAY_TASK_MIN=1, SLURM_ARRAY_TASK_MAX=4)',
    );
  });

  it('reads explicit 1-based M3_SHARD_INDEX / M3_SHARD_COUNT (a CI matrix)', () => {
    expect(pick('auto', { M3_SHARD_INDEX: '2', M3_SHARD_COUNT: '5' })).toBe('2/5');
    expect(pick('auto/5', { M3_SHARD_INDEX: '5' })).toBe('5/5');
  });

  it('accepts several sources that agree, and names both when they do not', () => {
    expect(pick('auto/3', { JOB_COMPLETION_INDEX: '1', M3_SHARD_INDEX: '2' })).toBe('2/3');
    expect(() => resolveAutoShard('auto/3', { JOB_COMPLETION_INDEX: '1', M3_SHARD_INDEX: '1' })).toThrowError(
      /M3_SHARD_INDEX=1 .* gives shard 1\/3 but JOB_COMPLETION_INDEX=1 .* gives shard 2\/3/,
    );
    expect(() => resolveAutoShard('auto/2', { SLURM_ARRAY_TASK_ID: '0', SLURM_ARRAY_TASK_MIN: '0', SLURM_ARRAY_TASK_MAX: '2' })).toThrowError(
      /SLURM_ARRAY_TASK_ID=0 .* gives shard 1\/3 but --shard auto\/2 gives 2 shards/,
    );
    expect(() => resolveAutoShard('auto/4', { M3_SHARD_COUNT: '3', JOB_COMPLETION_INDEX: '0' })).toThrowError(/--shard auto\/4 and M3_SHARD_COUNT=3 disagree/);
  });

  it('says which variable is missing or malformed', () => {
    expect(() => resolveAutoShard('auto', {})).toThrowError(/no shard index found .*JOB_COMPLETION_INDEX.*SLURM_ARRAY_TASK_ID.*M3_SHARD_INDEX/);
    expect(() => resolveAutoShard('auto', { JOB_COMPLETION_INDEX: '1' })).toThrowError(
      /JOB_COMPLETION_INDEX is set .* pass --shard auto\/N or set M3_SHARD_COUNT/,
    );
    expect(() => resolveAutoShard('auto/3', { JOB_COMPLETION_INDEX: 'one' })).toThrowError(/JOB_COMPLETION_INDEX="one" must be a whole number >= 0/);
    expect(() => resolveAutoShard('auto/3', { JOB_COMPLETION_INDEX: '3' })).toThrowError(/gives shard 4 of only 3/);
    expect(() => resolveAutoShard('auto/0', { JOB_COMPLETION_INDEX: '0' })).toThrowError(/auto\/0.*N must be a whole number >= 1/);
    expect(() => resolveAutoShard('auto', { M3_SHARD_INDEX: '0', M3_SHARD_COUNT: '2' })).toThrowError(/M3_SHARD_INDEX="0" must be a whole number >= 1/);
    expect(() => resolveAutoShard('auto', { SLURM_ARRAY_TASK_ID: '3' })).toThrowError(/neither SLURM_ARRAY_TASK_MIN\/MAX nor SLURM_ARRAY_TASK_COUNT/);
    expect(() =>
      resolveAutoShard('auto', { SLURM_ARRAY_TASK_ID: '3', SLURM_ARRAY_TASK_MIN: '1', SLURM_ARRAY_TASK_MAX: '7', SLURM_ARRAY_TASK_COUNT: '3' }),
    ).toThrowError(/SLURM_ARRAY_TASK_COUNT=3 but .* holds 7 tasks.*set M3_SHARD_INDEX and M3_SHARD_COUNT instead/);
    expect(() => resolveAutoShard('auto', { SLURM_ARRAY_TASK_ID: '9', SLURM_ARRAY_TASK_MIN: '1', SLURM_ARRAY_TASK_MAX: '4' })).toThrowError(
      /SLURM_ARRAY_TASK_ID=9 is not in the array range 1-4/,
    );
    expect(() => resolveAutoShard('automatic', {})).toThrowError(/must be k\/n, auto or auto\/N/);
  });

  it('keeps k/n, and refuses auto without a shared run id', () => {
    expect(resolveShardOption('2/4', {}, undefined)).toEqual({ index: 2, count: 4, source: '--shard 2/4' });
    expect(resolveShardOption(undefined, { JOB_COMPLETION_INDEX: '0' }, undefined)).toBeUndefined();
    expect(() => resolveShardOption('auto/2', { JOB_COMPLETION_INDEX: '0' }, undefined)).toThrowError(/same run id with --run-id or M3_RUN_ID/);
    expect(resolveShardOption('auto/2', { JOB_COMPLETION_INDEX: '0' }, 'batch-7')).toMatchObject({ index: 1, count: 2 });
  });

  it('the workers of an array cover every task exactly once', () => {
    const tasks = Array.from({ length: 11 }, (_, position) => ({ id: `L${String(position).padStart(4, '0')}` }));
    const slices = [0, 1, 2].map((index) => selectShard(tasks, resolveAutoShard('auto/3', { JOB_COMPLETION_INDEX: String(index) })));
    expect(
      slices
        .flat()
        .map((task) => task.id)
        .sort(),
    ).toEqual(tasks.map((task) => task.id));
  });
});
