// A benchmark file in MCP-Universe's multi-document YAML (`kind: llm | agent | workflow |
// benchmark`), validated with zod and turned into the same RunDefinition `m3 run` builds from
// its flags. `${VAR}` / `${VAR:-default}` in any string are filled as in mcp_servers.json.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { z } from 'zod';
import { agentKindSchema } from '../agent/agent-kind.js';
import { MAX_SUBTASKS_LIMIT, WORKFLOW_TYPES, type WorkflowDefinition } from '../agent/workflow-definition.js';
import { MAX_STEP_LIMIT } from '../agent/options.js';
import type { EnvMap } from '../config/env-file.js';
import { interpolate } from '../config/servers.js';
import { ConfigError } from '../errors/index.js';
import { RUN_DEFAULTS, type RunDefinition } from '../runner/run-definition.js';

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
      max_steps: z
        .number()
        .int()
        .positive()
        .max(MAX_STEP_LIMIT, `expected at most ${MAX_STEP_LIMIT} rounds (the limit on max_steps; the reference runs 6)`)
        .optional(),
    }),
  }),
});
const workflowDoc = z.strictObject({
  kind: z.literal('workflow'),
  spec: z
    .strictObject({
      name,
      type: z.enum(WORKFLOW_TYPES),
      config: z.strictObject({
        /** The model of the router's and orchestrator's planning requests (a chain has none). */
        llm: name.optional(),
        /** Names of kind: agent documents, in order. */
        agents: z.array(name).min(1),
        instruction: z.string().optional(),
        max_subtasks: z
          .number()
          .int()
          .positive()
          .max(MAX_SUBTASKS_LIMIT, `expected at most ${MAX_SUBTASKS_LIMIT} subtasks (the limit on max_subtasks: each subtask runs a whole agent)`)
          .optional(),
      }),
    })
    .superRefine((spec, context) => {
      if (spec.type !== 'chain' && !spec.config.llm)
        context.addIssue({
          code: 'custom',
          path: ['config', 'llm'],
          message: `a ${spec.type} workflow plans with a model: expected the name of a kind: llm document`,
        });
    }),
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

/**
 * The document as plain data. The yaml package refuses aliases that would expand past its limit
 * (an alias bomb: a few lines that unfold into billions of nodes) with a bare ReferenceError;
 * that is a bad input file, reported as such.
 */
function expandDocument(document: { toJS(): unknown }, at: string): unknown {
  try {
    return document.toJS();
  } catch (error) {
    throw new ConfigError(
      `${at}: the YAML cannot be expanded: ${(error as Error).message} (its aliases unfold into too many nodes: write the values out, or use fewer nested aliases)`,
      { cause: error },
    );
  }
}

function parseDocuments(file: string, env: EnvMap): BenchDocument[] {
  const documents = parseAllDocuments(readFileSync(file, 'utf8'));
  if (!Array.isArray(documents)) throw new ConfigError(`${file}: not a YAML stream`);
  return documents.map((document, index) => {
    const at = `${file}: document ${index + 1}`;
    if (document.errors.length > 0) throw new ConfigError(`${at}: invalid YAML (${document.errors[0]?.message ?? ''})`);
    const raw = interpolateTree(expandDocument(document, at), env, at);
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

type AgentDocument = z.infer<typeof agentDoc>;
type WorkflowDocument = z.infer<typeof workflowDoc>;

/** Default cap on an orchestrator's subtasks (`max_subtasks`). */
const MAX_SUBTASKS = 5;

function modelOf(documents: readonly BenchDocument[], llmName: string, from: string): string {
  const llm = byName<z.infer<typeof llmDoc>>(documents, 'llm', llmName, from);
  return `${providerOf[llm.spec.type] ?? llm.spec.type}:${llm.spec.config.model_name}`;
}

function agentOf(documents: readonly BenchDocument[], wanted: string, from: string): AgentDocument {
  if (documents.some((document) => document.kind === 'workflow' && document.spec.name === wanted))
    throw new ConfigError(`${from}: "${wanted}" is a workflow; a workflow's agents must be kind: agent documents (workflows do not nest)`);
  return byName<AgentDocument>(documents, 'agent', wanted, from);
}

/** A single agent's run: its kind, instruction, servers and max rounds are the run's. */
function agentRun(file: string, documents: readonly BenchDocument[], agent: AgentDocument): Partial<RunDefinition> {
  const config = agent.spec.config;
  return {
    model: [modelOf(documents, config.llm, `${file}: agent "${agent.spec.name}": spec.config.llm`)],
    agent: agent.spec.type,
    ...(config.instruction ? { instruction: config.instruction } : {}),
    ...(config.servers ? { servers: config.servers.map((server) => server.name) } : {}),
    ...(config.max_steps !== undefined ? { maxStep: String(config.max_steps) } : {}),
  };
}

/**
 * A workflow's run. A run has one model, so the workflow's llm and every agent's llm must name
 * the same model. The servers that start are those the tool-using agents list (all when one of
 * them lists none); each agent is offered only its own.
 */
function workflowRun(file: string, documents: readonly BenchDocument[], document: WorkflowDocument, index: number): Partial<RunDefinition> {
  const at = `${file}: document ${index + 1} (kind: workflow)`;
  const { spec } = document;
  const agents = spec.config.agents.map((wanted, position) => agentOf(documents, wanted, `${at}: spec.config.agents[${position}]`));
  const models = new Map<string, string>();
  if (spec.config.llm) models.set(modelOf(documents, spec.config.llm, `${at}: spec.config.llm`), `workflow "${spec.name}"`);
  for (const agent of agents) {
    const model = modelOf(documents, agent.spec.config.llm, `${file}: agent "${agent.spec.name}": spec.config.llm`);
    if (!models.has(model)) models.set(model, `agent "${agent.spec.name}"`);
  }
  if (models.size > 1) {
    const found = [...models].map(([model, user]) => `${model} (${user})`).join(', ');
    throw new ConfigError(`${at}: the workflow and its agents must use one model (a run has one model); found ${found}`);
  }
  const workflow: WorkflowDefinition = {
    name: spec.name,
    type: spec.type,
    agents: agents.map(({ spec: agent }) => ({
      name: agent.name,
      kind: agent.type,
      ...(agent.config.instruction ? { instruction: agent.config.instruction } : {}),
      ...(agent.config.servers ? { servers: agent.config.servers.map((server) => server.name) } : {}),
      ...(agent.config.max_steps !== undefined ? { maxStep: agent.config.max_steps } : {}),
    })),
    ...(spec.config.instruction ? { instruction: spec.config.instruction } : {}),
    maxSubtasks: spec.config.max_subtasks ?? MAX_SUBTASKS,
  };
  const toolUsers = workflow.agents.filter((agent) => agent.kind !== 'basic');
  const servers = toolUsers.every((agent) => agent.servers) ? [...new Set(toolUsers.flatMap((agent) => agent.servers ?? []))] : [];
  return { model: [...models.keys()], workflow, ...(servers.length > 0 ? { servers } : {}) };
}

/** The run a benchmark file describes; relative task paths are resolved from the file's folder. */
export function benchDefinition(file: string, env: EnvMap, overrides: Partial<RunDefinition> = {}): RunDefinition {
  const documents = parseDocuments(file, env);
  const benchmarks = documents.flatMap((document, index) => (document.kind === 'benchmark' ? [{ document, index }] : []));
  if (benchmarks.length !== 1) throw new ConfigError(`${file}: expected exactly one kind: benchmark document, found ${benchmarks.length}`);
  const { document: benchmark, index } = benchmarks[0]!;
  const at = `${file}: document ${index + 1} (kind: benchmark)`;
  const workflowIndex = documents.findIndex((document) => document.kind === 'workflow' && document.spec.name === benchmark.spec.agent);
  const runner =
    workflowIndex >= 0
      ? workflowRun(file, documents, documents[workflowIndex] as WorkflowDocument, workflowIndex)
      : agentRun(file, documents, byName<AgentDocument>(documents, 'agent', benchmark.spec.agent, `${at}: spec.agent`));
  const folder = path.dirname(path.resolve(file));
  return {
    ...RUN_DEFAULTS,
    ...runner,
    tasks: benchmark.spec.tasks.map((file) => path.resolve(folder, file)),
    ...(benchmark.spec.gt ? { gt: path.resolve(folder, benchmark.spec.gt) } : {}),
    ...overrides,
  };
}
