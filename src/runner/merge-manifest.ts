// The manifest of a run merged from its shards: every shard must be the same run (run id, model,
// condition, trials, config hash, task and ground-truth files by sha256, tool surface) with a
// distinct shard of the same count; the merged manifest adds up counts, joins failures, prompt
// hashes and resolved models, and recomputes the task-set hash over all shards' tasks, so it
// equals a single-process run's.
import { z } from 'zod';
import { formatIssues } from '../config/zod-issues.js';
import { ConfigError } from '../errors/index.js';
import { taskSetHash } from './prompt-hash.js';

const shardPattern = /^(\d+)\/(\d+)$/;

/** The fields merging reads; every other field is carried over from the first shard. */
const shardManifestSchema = z.looseObject({
  runId: z.string(),
  model: z.string(),
  configHash: z.string(),
  startedAt: z.string(),
  finishedAt: z.string().optional(),
  toolsHash: z.string(),
  tasksFileSha256: z.string().nullable(),
  gtFileSha256: z.string().nullable(),
  extraTaskFiles: z.array(z.object({ sha256: z.string().nullable() })).optional(),
  shard: z.string().regex(shardPattern).nullable(),
  condition: z.object({ name: z.string() }).optional(),
  trial: z.number().optional(),
  trials: z.number().optional(),
  counts: z.record(z.string(), z.number()).optional(),
  failures: z.array(z.unknown()).optional(),
  promptHashes: z.record(z.string(), z.string()).optional(),
  resolvedModels: z.array(z.string()).optional(),
  stopped: z.string().optional(),
  placeholderImages: z.looseObject({ tasks: z.record(z.string(), z.array(z.string())) }).optional(),
});

type ShardManifest = z.output<typeof shardManifestSchema>;

export interface ShardInput {
  /** Where the manifest came from (a manifest file or a store), for messages. */
  origin: string;
  manifest: ShardManifest;
}

export function parseShardManifest(raw: unknown, origin: string): ShardInput {
  const parsed = shardManifestSchema.safeParse(raw);
  if (!parsed.success) throw new ConfigError(`m3 merge: not a run manifest m3 merge can read:\n${formatIssues(origin, parsed.error.issues)}`);
  return { origin, manifest: parsed.data };
}

/** What must be equal across shards, each with the name a refusal uses. */
const sameness: Array<[string, (manifest: ShardManifest) => unknown]> = [
  ['run id', (manifest) => manifest.runId],
  ['model', (manifest) => manifest.model],
  ['condition', (manifest) => manifest.condition?.name ?? 'baseline'],
  ['trials', (manifest) => manifest.trials ?? 1],
  ['trial', (manifest) => manifest.trial ?? null],
  ['config hash', (manifest) => manifest.configHash],
  ['task file sha256', (manifest) => [manifest.tasksFileSha256, ...(manifest.extraTaskFiles ?? []).map((file) => file.sha256)].join(',')],
  ['ground-truth sha256', (manifest) => manifest.gtFileSha256],
  ['tool surface (tools hash)', (manifest) => manifest.toolsHash],
];

function shardOf(input: ShardInput): { index: number; count: number } {
  const match = shardPattern.exec(input.manifest.shard ?? '');
  if (!match) throw new ConfigError(`m3 merge: ${input.origin} is not a shard (its manifest has shard null: run with --shard k/n or --shard auto)`);
  return { index: Number(match[1]), count: Number(match[2]) };
}

/** Throws, naming both, unless `a` and `b` describe the same run (shards aside). */
export function checkSameRun(a: ShardInput, b: ShardInput): void {
  for (const [what, pick] of sameness) {
    const theirs = pick(a.manifest);
    const mine = pick(b.manifest);
    if (JSON.stringify(mine) !== JSON.stringify(theirs))
      throw new ConfigError(`m3 merge: ${a.origin} and ${b.origin} are not shards of one run: ${what} ${String(theirs)} vs ${String(mine)}`);
  }
}

/** Throws, naming both inputs, unless the shards are distinct slices of one run; returns them in shard order. */
export function checkShards(inputs: readonly ShardInput[]): ShardInput[] {
  const [first] = inputs;
  if (!first) throw new ConfigError('m3 merge: no shard to merge');
  const seen = new Map<number, ShardInput>();
  const firstShard = shardOf(first);
  for (const input of inputs) {
    checkSameRun(first, input);
    const shard = shardOf(input);
    if (shard.count !== firstShard.count)
      throw new ConfigError(`m3 merge: ${first.origin} is a shard of ${firstShard.count} but ${input.origin} a shard of ${shard.count}`);
    const twin = seen.get(shard.index);
    if (twin) throw new ConfigError(`m3 merge: ${twin.origin} and ${input.origin} are both shard ${shard.index}/${shard.count}`);
    seen.set(shard.index, input);
  }
  return [...seen.entries()].sort(([a], [b]) => a - b).map(([, input]) => input);
}

function sumCounts(manifests: readonly ShardManifest[]): Record<string, number> | undefined {
  if (!manifests.some((manifest) => manifest.counts)) return undefined;
  const total: Record<string, number> = {};
  for (const manifest of manifests) for (const [key, value] of Object.entries(manifest.counts ?? {})) total[key] = (total[key] ?? 0) + value;
  return total;
}

function placeholderImages(manifests: readonly ShardManifest[]): ShardManifest['placeholderImages'] {
  const present = manifests.map((manifest) => manifest.placeholderImages).filter((entry) => entry !== undefined);
  const [first] = present;
  if (!first) return undefined;
  const tasks = Object.assign({}, ...present.map((entry) => entry.tasks)) as Record<string, string[]>;
  return { ...first, taskCount: Object.keys(tasks).length, tasks };
}

/** One manifest for the merged run; `shard` becomes null and `mergedShards` lists where each shard came from. */
export function mergeShardManifests(inputs: readonly ShardInput[]): Record<string, unknown> {
  const ordered = checkShards(inputs);
  const manifests = ordered.map((input) => input.manifest);
  const first = manifests[0] as ShardManifest;
  const hashes = new Map(manifests.flatMap((manifest) => Object.entries(manifest.promptHashes ?? {})));
  const finished = manifests.map((manifest) => manifest.finishedAt);
  const stopped = manifests.map((manifest) => manifest.stopped).filter((reason) => reason !== undefined);
  const merged: Record<string, unknown> = {
    ...first,
    shard: null,
    mergedShards: ordered.map((input) => ({
      shard: input.manifest.shard,
      from: input.origin,
      startedAt: input.manifest.startedAt,
      finishedAt: input.manifest.finishedAt ?? null,
    })),
    startedAt: manifests.map((manifest) => manifest.startedAt).sort()[0],
    finishedAt: finished.every((value) => value !== undefined) ? finished.sort().at(-1) : undefined,
    counts: sumCounts(manifests),
    failures: manifests.flatMap((manifest) => manifest.failures ?? []),
    resolvedModels: [...new Set(manifests.flatMap((manifest) => manifest.resolvedModels ?? []))].sort(),
    stopped: stopped.length > 0 ? stopped.join('; ') : undefined,
    placeholderImages: placeholderImages(manifests),
  };
  if (manifests.some((manifest) => manifest.promptHashes)) {
    merged.promptHashes = Object.fromEntries([...hashes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    merged.taskSetHash = taskSetHash(hashes);
  }
  return JSON.parse(JSON.stringify(merged)) as Record<string, unknown>;
}
