// `--shard k/n` and `--shard auto[/N]`: which slice of the task set this worker runs. `auto`
// reads the index (and where the scheduler gives it, the count) that a scheduler hands each
// worker, so one command line serves every worker of a Kubernetes Indexed Job, a Slurm job
// array or a CI matrix. Every source found must agree; the answer says where it came from.
import { TaskFileError } from '../errors/index.js';
import { parseShard } from './task-set.js';

interface Shard {
  /** 1-based, as in `--shard k/n`. */
  index: number;
  count: number;
}

export interface ResolvedShard extends Shard {
  /** Where index and count came from, e.g. `JOB_COMPLETION_INDEX=1 (Kubernetes Indexed Job), count 3 from --shard auto/3`. */
  source: string;
}

/**
 * The environment variables `--shard auto` reads (docs/running.md and its test list the same names).
 * @internal Exported for its tests.
 */
export const SHARD_VARIABLES = [
  'M3_SHARD_INDEX',
  'M3_SHARD_COUNT',
  'JOB_COMPLETION_INDEX',
  'SLURM_ARRAY_TASK_ID',
  'SLURM_ARRAY_TASK_MIN',
  'SLURM_ARRAY_TASK_MAX',
  'SLURM_ARRAY_TASK_STEP',
  'SLURM_ARRAY_TASK_COUNT',
] as const;

type Env = Readonly<Record<string, string | undefined>>;

interface Candidate extends Shard {
  source: string;
}

const autoPattern = /^auto(?:\/(.*))?$/;

function wholeNumber(env: Env, name: string, minimum: number): number | undefined {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < minimum) throw new TaskFileError(`--shard auto: ${name}="${env[name]}" must be a whole number >= ${minimum}`);
  return Number(raw);
}

/** The count passed in by `auto/N` and M3_SHARD_COUNT; both set must agree. */
function passedCount(autoCount: string | undefined, env: Env): { count: number; from: string } | undefined {
  let fromFlag: number | undefined;
  if (autoCount !== undefined) {
    if (!/^\d+$/.test(autoCount) || Number(autoCount) < 1) throw new TaskFileError(`--shard "auto/${autoCount}": N must be a whole number >= 1, e.g. auto/4`);
    fromFlag = Number(autoCount);
  }
  const fromEnv = wholeNumber(env, 'M3_SHARD_COUNT', 1);
  if (fromFlag !== undefined && fromEnv !== undefined && fromFlag !== fromEnv)
    throw new TaskFileError(`--shard auto/${fromFlag} and M3_SHARD_COUNT=${fromEnv} disagree on the number of shards; set one of them`);
  if (fromFlag !== undefined) return { count: fromFlag, from: `--shard auto/${fromFlag}` };
  if (fromEnv !== undefined) return { count: fromEnv, from: `M3_SHARD_COUNT=${fromEnv}` };
  return undefined;
}

function needCount(variable: string, what: string): TaskFileError {
  return new TaskFileError(
    `--shard auto: ${variable} is set (${what}) but the number of shards is not: pass --shard auto/N or set M3_SHARD_COUNT (the Job's completions)`,
  );
}

function explicitCandidate(env: Env, count: ReturnType<typeof passedCount>): Candidate | undefined {
  const index = wholeNumber(env, 'M3_SHARD_INDEX', 1);
  if (index === undefined) return undefined;
  if (!count) throw needCount('M3_SHARD_INDEX', 'an explicit 1-based shard index');
  return { index, count: count.count, source: `M3_SHARD_INDEX=${index} (explicit, 1-based), count from ${count.from}` };
}

function kubernetesCandidate(env: Env, count: ReturnType<typeof passedCount>): Candidate | undefined {
  const index = wholeNumber(env, 'JOB_COMPLETION_INDEX', 0);
  if (index === undefined) return undefined;
  if (!count) throw needCount('JOB_COMPLETION_INDEX', 'a Kubernetes Indexed Job');
  return { index: index + 1, count: count.count, source: `JOB_COMPLETION_INDEX=${index} (Kubernetes Indexed Job, 0-based), count from ${count.from}` };
}

/** Slurm: the array's range (MIN..MAX by STEP) gives index and count; TASK_COUNT must agree with it. */
function slurmCandidate(env: Env): Candidate | undefined {
  const id = wholeNumber(env, 'SLURM_ARRAY_TASK_ID', 0);
  if (id === undefined) return undefined;
  const min = wholeNumber(env, 'SLURM_ARRAY_TASK_MIN', 0);
  const max = wholeNumber(env, 'SLURM_ARRAY_TASK_MAX', 0);
  const step = wholeNumber(env, 'SLURM_ARRAY_TASK_STEP', 1) ?? 1;
  const given = wholeNumber(env, 'SLURM_ARRAY_TASK_COUNT', 1);
  const first = min ?? 0;
  if (min === undefined && given === undefined)
    throw new TaskFileError(
      '--shard auto: SLURM_ARRAY_TASK_ID is set but neither SLURM_ARRAY_TASK_MIN/MAX nor SLURM_ARRAY_TASK_COUNT is (is this a job array?)',
    );
  const offset = id - first;
  if (offset < 0 || offset % step !== 0 || (max !== undefined && id > max))
    throw new TaskFileError(`--shard auto: SLURM_ARRAY_TASK_ID=${id} is not in the array range ${first}-${max ?? '?'}:${step} (SLURM_ARRAY_TASK_MIN/MAX/STEP)`);
  const ranged = max !== undefined ? Math.floor((max - first) / step) + 1 : undefined;
  if (ranged !== undefined && given !== undefined && ranged !== given)
    throw new TaskFileError(
      `--shard auto: SLURM_ARRAY_TASK_COUNT=${given} but SLURM_ARRAY_TASK_MIN..MAX:STEP (${first}..${max}:${step}) holds ${ranged} tasks; an array of uneven ids (--array=1,3,7) cannot be sliced from them: set M3_SHARD_INDEX and M3_SHARD_COUNT instead`,
    );
  const count = ranged ?? (given as number);
  const index = offset / step + 1;
  if (index > count) throw new TaskFileError(`--shard auto: SLURM_ARRAY_TASK_ID=${id} is past the last of ${count} array tasks starting at ${first}`);
  const range = ranged !== undefined ? `SLURM_ARRAY_TASK_MIN=${first}, SLURM_ARRAY_TASK_MAX=${max}` : `SLURM_ARRAY_TASK_COUNT=${given}`;
  return { index, count, source: `SLURM_ARRAY_TASK_ID=${id} (Slurm job array; ${range}${step > 1 ? `, step ${step}` : ''})` };
}

const noSource = `--shard auto: no shard index found in the environment; expected one of JOB_COMPLETION_INDEX (Kubernetes Indexed Job, with --shard auto/N or M3_SHARD_COUNT), SLURM_ARRAY_TASK_ID (Slurm job array), or M3_SHARD_INDEX with M3_SHARD_COUNT (1-based, e.g. a CI matrix)`;

/**
 * `auto[/N]` → the shard the environment names. Pure: the caller passes the environment.
 * @internal Exported for its tests.
 */
export function resolveAutoShard(text: string, env: Env): ResolvedShard {
  const match = autoPattern.exec(text.trim());
  if (!match) throw new TaskFileError(`--shard "${text}" must be k/n, auto or auto/N`);
  const count = passedCount(match[1], env);
  const candidates = [explicitCandidate(env, count), kubernetesCandidate(env, count), slurmCandidate(env)].filter(
    (candidate): candidate is Candidate => candidate !== undefined,
  );
  const [picked, ...others] = candidates;
  if (!picked) throw new TaskFileError(noSource);
  for (const other of [...others, ...(count ? [{ ...picked, count: count.count, source: count.from }] : [])]) {
    if (other.index !== picked.index || other.count !== picked.count)
      throw new TaskFileError(
        `--shard auto: ${picked.source} gives shard ${picked.index}/${picked.count} but ${other.source} gives ${other.count === picked.count ? `shard ${other.index}/${other.count}` : `${other.count} shards`}; unset one of them`,
      );
  }
  if (picked.index > picked.count)
    throw new TaskFileError(`--shard auto: ${picked.source} gives shard ${picked.index} of only ${picked.count}; the index must be below the count`);
  return { index: picked.index, count: picked.count, source: picked.source };
}

/**
 * `--shard` as given: absent, `k/n`, or `auto[/N]` (resolved from `env`). Workers a scheduler
 * starts at different moments would each take a timestamp as run id, and `m3 merge` joins only
 * shards of one run, so `auto` needs the run id given (`runId`: --run-id or M3_RUN_ID).
 */
export function resolveShardOption(text: string | undefined, env: Env, runId: string | undefined): ResolvedShard | undefined {
  if (!text) return undefined;
  if (autoPattern.test(text.trim())) {
    const shard = resolveAutoShard(text, env);
    if (!runId)
      throw new TaskFileError(
        `--shard auto (${shard.source}): give every worker the same run id with --run-id or M3_RUN_ID, so m3 merge can join the shards into one run`,
      );
    return shard;
  }
  const shard = parseShard(text);
  return shard ? { ...shard, source: `--shard ${shard.index}/${shard.count}` } : undefined;
}
