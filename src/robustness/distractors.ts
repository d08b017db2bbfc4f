// `--condition distractors=N[:lookalike|unrelated|mixed]`: N planted tools join the tools one task
// is offered, generated from the run seed and the task: look-alikes of the task's GT tools (a near
// name on the same server, the same description with a neutral preface, the same input schema) and
// unrelated tools (a copy of another server's tool under a server name that does not exist). A call
// to one never reaches a server: it answers with an empty result or a "no longer available" error,
// both plausible and neither authoritative, marked `distractor` (code and condition mark).
import { toolErrorText } from '../core/tool-result-contract.js';
import { toBaseFunctionName } from '../mcp/function-names.js';
import type { CatalogTool, ToolCallOutcome, ToolHost } from '../mcp/types.js';
import type { GtTask } from '../tasks/schemas.js';
import { drawFor, randomFor } from './draw.js';
import { hostView } from '../mcp/host-view.js';

export const distractorKinds = ['mixed', 'lookalike', 'unrelated'] as const;
export type DistractorKind = (typeof distractorKinds)[number];

export interface DistractorSpec {
  count: number;
  kind: DistractorKind;
}

export interface PlantedTool extends CatalogTool {
  /** `lookalike of <tool>` or `unrelated copy of <tool>`. */
  imitates: string;
}

const suffixes = ['_v2', '_legacy', '_beta', '_lite', '_pro', '_fast', '_basic', '_ex', '_alt', '_plus'];
const prefaces = ['Alternative endpoint for the same service. ', 'Compatibility variant. ', 'Secondary endpoint. ', 'Mirror endpoint. '];

function gtToolNames(gt: GtTask | undefined): string[] {
  const names = (gt?.steps ?? []).flatMap((step) => step.calls.map((call) => String(call.name ?? '').trim())).filter(Boolean);
  return [...new Set(names)];
}

function uniqueName(wanted: string, taken: Set<string>): string {
  let name = wanted;
  for (let index = 2; taken.has(name); index += 1) name = `${wanted}${index}`;
  taken.add(name);
  return name;
}

/** The planted tools of one task: the same list for the same seed, task and offered tools. */
export function plantDistractors(offered: readonly CatalogTool[], gt: GtTask | undefined, spec: DistractorSpec, seed: number, taskId: string): PlantedTool[] {
  const byName = new Map(offered.map((tool) => [tool.canonicalName, tool]));
  const targets = gtToolNames(gt).flatMap((name) => (byName.has(name) ? [byName.get(name) as CatalogTool] : []));
  const others = offered.filter((tool) => !targets.includes(tool));
  const lookalikes =
    spec.kind === 'unrelated' || targets.length === 0 ? 0 : spec.kind === 'lookalike' || others.length === 0 ? spec.count : Math.ceil(spec.count / 2);
  const random = randomFor(seed, 'distractors', taskId);
  const canonical = new Set(offered.map((tool) => tool.canonicalName));
  const functions = new Set(offered.map((tool) => tool.functionName));
  const planted: PlantedTool[] = [];
  const plant = (base: CatalogTool, server: string, tool: string, description: string, imitates: string) => {
    const canonicalName = uniqueName(`${server}/${tool}`, canonical);
    const functionName = uniqueName(toBaseFunctionName(canonicalName).slice(0, 60), functions);
    planted.push({ ...base, canonicalName, server, tool: canonicalName.slice(server.length + 1), functionName, description, imitates });
  };
  for (let index = 0; index < spec.count; index += 1) {
    if (index < lookalikes) {
      const target = targets[index % targets.length] as CatalogTool;
      const suffix = suffixes[Math.floor(random() * suffixes.length)] ?? '_v2';
      const preface = prefaces[Math.floor(random() * prefaces.length)] ?? '';
      plant(target, target.server, `${target.tool}${suffix}`, `${preface}${target.description}`, `lookalike of ${target.canonicalName}`);
    } else {
      const pool = others.length > 0 ? others : offered;
      const source = pool[Math.floor(random() * pool.length)];
      if (!source) break;
      plant(source, `${source.server}-archive`, source.tool, source.description, `unrelated copy of ${source.canonicalName}`);
    }
  }
  return planted;
}

/** What a planted tool answers: half the calls an empty result, half a retirement notice. */
function distractorAnswer(tool: PlantedTool, seed: number, taskId: string, args: Record<string, unknown>): ToolCallOutcome {
  const empty = drawFor(seed, 'distractor-answer', taskId, tool.canonicalName, JSON.stringify(args)) < 0.5;
  const text = empty
    ? JSON.stringify({ results: [], message: 'No matching records were found by this endpoint.' })
    : toolErrorText('this endpoint is no longer available and returned no data');
  return {
    canonicalName: tool.canonicalName,
    content: [{ type: 'text', text }],
    isError: !empty,
    ...(empty ? {} : { errorCode: 'distractor' as const }),
    text,
    durationMs: 0,
    condition: { kind: 'distractor', detail: tool.imitates },
  };
}

export function withDistractors(host: ToolHost, planted: readonly PlantedTool[], seed: number, taskId: string): ToolHost {
  const byCanonical = new Map(planted.map((tool) => [tool.canonicalName, tool]));
  const byFunction = new Map(planted.map((tool) => [tool.functionName, tool]));
  return hostView(host, {
    tools: [...host.tools, ...planted],
    findByCanonical: (name) => byCanonical.get(name) ?? host.findByCanonical(name),
    findByFunctionName: (name) => byFunction.get(name) ?? host.findByFunctionName(name),
    callTool: async (name, args, options) => {
      const tool = byCanonical.get(name);
      return tool ? distractorAnswer(tool, seed, taskId, args) : host.callTool(name, args, options);
    },
  });
}
