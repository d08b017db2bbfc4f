// A benchmark file in MCP-Universe's multi-document YAML (`kind: llm | agent | workflow |
// benchmark`), validated with zod and turned into the same RunDefinition `m3 run` builds from
// its flags. `${VAR}` / `${VAR:-default}` in any string are filled as in mcp_servers.json.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { z } from 'zod';
import { agentKindSchema } from '../agent/agent-kind.js';
import type { EnvMap } from '../config/env-file.js';
import { interpolate } from '../config/servers.js';
import { ConfigError } from '../errors/index.js';
import { RUN_DEFAULTS, type RunDefinition } from './run-definition.js';

const name = z.string().min(1);
const llmDoc = z.strictObject({
  kind: z.literal('llm'),
  spec: z.strictObject({ name, type: name, config: z.looseObject({ model_name: name }) }),
});
const agentDoc = z.strictObject({
  kind: z.literal('agent'),
  spec: z.strictObject({
    name,
    type: agentKindSchema,
    config: z.strictObject({
      llm: name,
      instruction: z.string().optional(),
      servers: z.array(z.strictObject({ name })).optional(),
      max_steps: z.number().int().positive().optional(),
    }),
  }),
});
const workflowDoc = z.strictObject({
  kind: z.literal('workflow'),
  spec: z.strictObject({ name, type: z.enum(['chain', 'router', 'orchestrator']), config: z.looseObject({}) }),
});
const benchmarkDoc = z.strictObject({
  kind: z.literal('benchmark'),
  spec: z.strictObject({
    description: z.string().optional(),
    agent: name,
    /** M3-Bench task files and MCP-Universe task files, run together. */
    tasks: z.array(name).min(1),
    gt: name.optional(),
  }),
});
const documentSchema = z.discriminatedUnion('kind', [llmDoc, agentDoc, workflowDoc, benchmarkDoc]);
type BenchDocument = z.infer<typeof documentSchema>;

/** MCP-Universe's LLM `type` names → our provider prefixes (others pass through unchanged). */
const providerOf: Record<string, string> = { openai: 'openai', anthropic: 'anthropic', claude: 'anthropic', google: 'gemini', gemini: 'gemini' };

function interpolateTree(value: unknown, env: EnvMap, where: string): unknown {
  if (typeof value === 'string') return interpolate(value, env, where);
  if (Array.isArray(value)) return value.map((item, index) => interpolateTree(item, env, `${where}[${index}]`));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, interpolateTree(item, env, `${where}.${key}`)]));
  return value;
}

function parseDocuments(file: string, env: EnvMap): BenchDocument[] {
  const documents = parseAllDocuments(readFileSync(file, 'utf8'));
  if (!Array.isArray(documents)) throw new ConfigError(`${file}: not a YAML stream`);
  return documents.map((document, index) => {
    const at = `${file}: document ${index + 1}`;
    if (document.errors.length > 0) throw new ConfigError(`${at}: invalid YAML (${document.errors[0]?.message ?? ''})`);
    const raw = interpolateTree(document.toJS(), env, at);
    const parsed = documentSchema.safeParse(raw);
    if (parsed.success) return parsed.data;
    const kind = (raw as { kind?: unknown } | null)?.kind;
    const issues = parsed.error.issues.map((issue) => `at ${issue.path.join('.') || '(document)'}: ${issue.message}`);
    throw new ConfigError(
      `${at}${typeof kind === 'string' ? ` (kind: ${kind})` : ''}: ${issues.join('; ')} (expected kind llm, agent, workflow or benchmark with a spec as in README "Benchmark files")`,
    );
  });
}

function byName<T extends BenchDocument>(documents: readonly BenchDocument[], kind: T['kind'], wanted: string, from: string): T {
  const found = documents.find((document) => document.kind === kind && 'name' in document.spec && document.spec.name === wanted);
  if (!found) throw new ConfigError(`${from}: no kind: ${kind} document named "${wanted}"`);
  return found as T;
}

/** The run a benchmark file describes; relative task paths are resolved from the file's folder. */
export function benchDefinition(file: string, env: EnvMap, overrides: Partial<RunDefinition> = {}): RunDefinition {
  const documents = parseDocuments(file, env);
  const benchmarks = documents.flatMap((document, index) => (document.kind === 'benchmark' ? [{ document, index }] : []));
  if (benchmarks.length !== 1) throw new ConfigError(`${file}: expected exactly one kind: benchmark document, found ${benchmarks.length}`);
  const { document: benchmark, index } = benchmarks[0]!;
  const at = `${file}: document ${index + 1} (kind: benchmark)`;
  if (documents.some((document) => document.kind === 'workflow' && document.spec.name === benchmark.spec.agent)) {
    throw new ConfigError(`${at}: spec.agent names a workflow; workflows are not runnable yet (use a kind: agent document)`);
  }
  const agent = byName<z.infer<typeof agentDoc>>(documents, 'agent', benchmark.spec.agent, `${at}: spec.agent`);
  const llm = byName<z.infer<typeof llmDoc>>(documents, 'llm', agent.spec.config.llm, `${file}: agent "${agent.spec.name}": spec.config.llm`);
  const folder = path.dirname(path.resolve(file));
  const config = agent.spec.config;
  return {
    ...RUN_DEFAULTS,
    model: [`${providerOf[llm.spec.type] ?? llm.spec.type}:${llm.spec.config.model_name}`],
    agent: agent.spec.type,
    ...(config.instruction ? { instruction: config.instruction } : {}),
    ...(config.servers ? { servers: config.servers.map((server) => server.name) } : {}),
    ...(config.max_steps !== undefined ? { maxStep: String(config.max_steps) } : {}),
    tasks: benchmark.spec.tasks.map((file) => path.resolve(folder, file)),
    ...(benchmark.spec.gt ? { gt: path.resolve(folder, benchmark.spec.gt) } : {}),
    ...overrides,
  };
}
