// The run manifest (`<label>_test_mcp_fuzzy.manifest.json`, and the store's copy): one zod
// schema, used by the runner to type what it writes and by every reader to parse it back. Readers
// that need only a part take a projection of this schema (`runManifestPart`), never their own.
import { z } from 'zod';
import { writeJsonAtomic } from '../tasks/write-json.js';

const samplingSchema = z.object({
  temperature: z.number().nullable(),
  /** The seed this trial sent; null when none was sent (the provider samples as it likes). */
  seed: z.number().nullable(),
  maxNewTokens: z.number(),
  maxSteps: z.number(),
  maxConcurrentCalls: z.number(),
  topTools: z.number(),
  /** What the harness does not set, so the provider's defaults apply. */
  providerDefaults: z.array(z.string()),
});

const failureSchema = z.object({ taskId: z.string(), status: z.string(), code: z.string(), message: z.string(), attempts: z.number() });

export const runManifestSchema = z
  .object({
    runId: z.string(),
    model: z.string(),
    modelLabel: z.string(),
    startedAt: z.string(),
    finishedAt: z.string().optional(),
    configHash: z.string(),
    serversFile: z.string(),
    serversFileSha256: z.string().nullable(),
    toolsHash: z.string(),
    /** The named tool surface (src/mcp/tool-surface.ts) and its hash (= toolsHash); absent in runs before it was recorded: m3bench. */
    toolSurface: z.object({ name: z.string(), hash: z.string(), catalogFile: z.string().optional() }).optional(),
    /** Per server; `runsFrom` for our own servers: compiled dist/ or source through tsx (src/config/built-servers.ts). */
    tools: z.array(
      z.object({
        server: z.string(),
        toolCount: z.number(),
        toolsHash: z.string().optional(),
        state: z.string(),
        runsFrom: z.enum(['source', 'dist']).optional(),
      }),
    ),
    switches: z.record(z.string(), z.unknown()),
    options: z.record(z.string(), z.unknown()),
    versions: z.record(z.string(), z.string()),
    gitCommit: z.string().nullable(),
    seed: z.number().nullable(),
    tasksFile: z.string(),
    tasksFileSha256: z.string().nullable(),
    /** The run's other task files (`m3 run --tasks a b`, a benchmark file's task list). */
    extraTaskFiles: z.array(z.object({ file: z.string(), sha256: z.string().nullable() })).optional(),
    gtFile: z.string().nullable(),
    gtFileSha256: z.string().nullable(),
    shard: z.string().nullable(),
    /** The price entry this run's costs were computed with (src/llm/pricing.ts priceRecord); null: no price known. */
    price: z.string().nullable().optional(),
    /** What the tool fallback layer did in this run (src/fallback/settings.ts). */
    fallback: z.record(z.string(), z.unknown()).optional(),
    /** Set with --placeholder-images (src/media/missing-image-stand-in.ts). */
    placeholderImages: z
      .object({
        enabled: z.literal(true),
        note: z.string(),
        dir: z.string(),
        taskCount: z.number(),
        tasks: z.record(z.string(), z.array(z.string())),
      })
      .optional(),
    counts: z.record(z.string(), z.number()).optional(),
    failures: z.array(failureSchema).optional(),
    /** Why the run stopped before its queue was empty (Ctrl-C, or another process took it over). */
    stopped: z.string().optional(),
    /** The `m3 run` invocation (batch) this run belongs to; its folder is results/runs/<batchId>/. */
    batchId: z.string().optional(),
    /** The named condition of the run (src/runner/conditions.ts) and what it changed. */
    condition: z.object({ name: z.string(), parts: z.array(z.object({ name: z.string(), description: z.string() })) }).optional(),
    /** This file's trial (1-based) and the trials per task of the run. */
    trial: z.number().optional(),
    trials: z.number().optional(),
    /** Every sampling and loop parameter the model's requests were made with (null: provider default). */
    sampling: samplingSchema.optional(),
    /** Model ids the provider said it served (the response's `model` / `modelVersion`), sorted. */
    resolvedModels: z.array(z.string()).optional(),
    /** Per task, its prompt hash (src/runner/prompt-hash.ts), and one hash over all of them. */
    promptHashes: z.record(z.string(), z.string()).optional(),
    taskSetHash: z.string().optional(),
    /** Servers whose tool list differs from the one recorded when the run started (resume/merge). */
    toolSurfaceDrift: z.array(z.object({ server: z.string(), recorded: z.string().nullable(), current: z.string().nullable() })).optional(),
    /** A benchmark file's workflow (src/agent/workflow.ts): its name, type and the sha256 of its definition. */
    workflow: z.object({ name: z.string(), type: z.string(), sha256: z.string() }).optional(),
    /** `m3 run --cache`: the policy, the file and how many responses the cache served, missed and recorded. */
    responseCache: z
      .object({
        policy: z.string(),
        file: z.string(),
        maxAgeSeconds: z.number().nullable(),
        served: z.number(),
        missed: z.number(),
        recorded: z.number(),
      })
      .optional(),
    /** `m3 run --batch`: jobs, requests answered by a batch job or sent the ordinary way, and their cost at list and batch price. */
    providerBatch: z
      .object({
        discount: z.number(),
        discountSource: z.string(),
        jobs: z.number(),
        submitted: z.number(),
        resumed: z.number(),
        answered: z.number(),
        fallback: z.number(),
        answeredCostListUsd: z.number().nullable(),
        answeredCostBatchUsd: z.number().nullable(),
      })
      .optional(),
    /**
     * What the model requests cost at the price table (src/runner/run-cost.ts): paid to the provider
     * (batch replies at the batch price), served by the model-response cache (recorded usage,
     * nothing paid: saved) and saved by batch pricing; USD null when the
     * model has no price; and the tasks each per-task limit stopped.
     */
    cost: z
      .object({
        paidUsd: z.number().nullable(),
        savedUsd: z.number().nullable(),
        /** What batch pricing took off the list price (absent in manifests written before it was recorded). */
        savedByBatchUsd: z.number().nullable().optional(),
        paidTokens: z.object({ input: z.number(), output: z.number(), cached: z.number() }),
        /** The part of paidTokens a provider batch job answered (billed at the batch price). */
        batchTokens: z.object({ input: z.number(), output: z.number(), cached: z.number() }).optional(),
        servedTokens: z.object({ input: z.number(), output: z.number(), cached: z.number() }),
        limited: z.object({ tokens: z.number(), messages: z.number(), cost: z.number() }),
      })
      .optional(),
    /** `m3 run --max-cost`: the invocation's budget, what it had paid, and whether it stopped scheduling tasks. */
    maxCost: z.object({ limitUsd: z.number(), spentUsd: z.number(), reached: z.boolean(), note: z.string().optional() }).optional(),
    /** The run's trials: the files of each and its counts (in the store's copy of the manifest). */
    trialFiles: z
      .array(
        z.object({
          trial: z.number(),
          seed: z.number().nullable(),
          predictions: z.string(),
          manifest: z.string(),
          counts: z.record(z.string(), z.number()).optional(),
        }),
      )
      .optional(),
  })
  // Fields a later version adds are kept when an older reader rewrites the file.
  .loose();

export type RunManifest = z.output<typeof runManifestSchema>;
export type SamplingRecord = z.output<typeof samplingSchema>;

export function writeRunManifest(file: string, manifest: RunManifest): void {
  writeJsonAtomic(file, runManifestSchema.parse(manifest));
}

/**
 * The part of a manifest the report's runs table reads: this schema's fields, the identity ones
 * required, the rest optional (older manifests lack fields this version writes).
 */
export const runManifestSummaryPart = runManifestSchema
  .pick({ runId: true, model: true, startedAt: true })
  .extend(
    runManifestSchema
      .pick({
        finishedAt: true,
        gitCommit: true,
        tasksFile: true,
        condition: true,
        trial: true,
        trials: true,
        batchId: true,
        taskSetHash: true,
        gtFileSha256: true,
        placeholderImages: true,
        toolsHash: true,
        toolSurface: true,
      })
      .partial().shape,
  )
  .extend({
    // Older manifests recorded only some sampling fields; the table shows temperature and seed.
    sampling: samplingSchema.partial().optional(),
    options: runManifestSchema.shape.options.default({}),
    counts: z.record(z.string(), z.number()).default({}),
    versions: runManifestSchema.shape.versions.default({}),
  })
  .loose();
