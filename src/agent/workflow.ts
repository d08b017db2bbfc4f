// Workflows over the one episode loop (src/agent/episode.ts): every agent of a workflow, and
// every planning request of a router or orchestrator, is a runEpisode call of its own kind,
// instruction, servers and max rounds, under the task's one episode. Each inner event names its
// agent and its round is shifted past the rounds already used, so the store's rows and the
// trace read in execution order and never collide. The traces are joined into ONE trajectory:
//   - rounds in execution order, each sub-agent round one step (rounds with no executed call
//     add none, as for one agent);
//   - planning requests are `basic` episodes (one request, no tools), so they add no steps;
//   - the final answer is the last agent's (chain), the chosen agent's (router), or the
//     composed one (orchestrator).
// chain: each agent gets the task and the previous agent's answer. router: one planning request
// picks an agent ({"agent", "reason"}), which then runs on the task. orchestrator: one planning
// request lists subtasks ({"subtasks": [{"agent", "task"}]}), run in order, each seeing the
// earlier results, then one request composes the answer. A reply that names no usable agent or
// subtask runs nothing further: the answer is empty and the reason is in `workflow.plan_error`.
import { addUsage, emptyUsage } from '../core/usage.js';
import { emptyBilledUsage, sumBilledUsage } from '../llm/pricing.js';
import { narrowHost } from '../mcp/narrowed-host.js';
import type { AgentKind } from './agent-kind.js';
import { EpisodeFailure, runEpisode, type EpisodeDeps, type EpisodeInput, type EpisodeTrace } from './episode.js';
import { safeEmit, type AgentEvent } from './events.js';
import type { WorkflowAgent, WorkflowDefinition, WorkflowRecord } from './workflow-definition.js';
import * as words from './workflow-prompts.js';

interface StepSpec {
  kind: AgentKind;
  instruction?: string;
  servers?: string[];
  maxStep?: number;
  /** A router's or orchestrator's planning request: its answer is a plan, and its final event says so. */
  planner?: true;
}

/** The joined trace of a workflow's episodes and the round offset of the next one. */
class WorkflowRun {
  readonly record: WorkflowRecord;
  readonly trace: EpisodeTrace;
  private offset = 0;

  constructor(
    private readonly input: EpisodeInput,
    private readonly deps: EpisodeDeps,
    workflow: WorkflowDefinition,
  ) {
    this.record = { name: workflow.name, type: workflow.type, order: [] };
    this.trace = { rounds: [], finalReply: '', usage: emptyUsage(), modelCalls: 0, warnings: [], workflow: this.record };
  }

  /** Runs one agent on `userText` as part of the task's episode; returns its final answer. */
  async step(name: string, spec: StepSpec, userText: string): Promise<string> {
    const start = this.offset;
    let top = start;
    const onEvent = (event: AgentEvent) => {
      const shifted = 'round' in event ? { ...event, round: event.round + start } : event;
      if ('round' in shifted) top = Math.max(top, shifted.round);
      const labelled = shifted.type === 'final' && spec.planner ? { ...shifted, plan: true as const } : shifted;
      safeEmit(this.deps.onEvent, { ...labelled, agent: name });
    };
    const { workflow: _workflow, instruction: _instruction, ...base } = this.deps.options;
    const options = {
      ...base,
      agent: spec.kind,
      maxStep: spec.maxStep ?? base.maxStep,
      ...(spec.instruction ? { instruction: spec.instruction } : {}),
    };
    const host = spec.servers ? narrowHost(this.deps.host, spec.servers) : this.deps.host;
    this.record.order.push(name);
    try {
      const trace = await runEpisode({ ...this.input, userText }, { ...this.deps, host, options, onEvent });
      this.absorb(trace, name, start);
      return trace.finalReply;
    } catch (error) {
      if (!(error instanceof EpisodeFailure)) throw error;
      this.absorb(error.trace, name, start);
      throw new EpisodeFailure(error, this.trace);
    } finally {
      this.offset = top;
    }
  }

  private absorb(trace: EpisodeTrace, agent: string, start: number): void {
    this.trace.rounds.push(...trace.rounds.map((round) => ({ ...round, round: round.round + start, agent })));
    this.trace.usage = addUsage(this.trace.usage, trace.usage);
    if (trace.billed) this.trace.billed = sumBilledUsage(this.trace.billed ?? emptyBilledUsage(), trace.billed);
    this.trace.modelCalls += trace.modelCalls;
    this.trace.warnings.push(...trace.warnings);
    // The workflow's reply is its last agent's: that agent's end is the workflow's end.
    if (trace.end) this.trace.end = trace.end;
    else delete this.trace.end;
  }
}

function plannerSpec(workflow: WorkflowDefinition, role: string): StepSpec {
  const own = `You are the ${role} of the workflow "${workflow.name}".`;
  return { kind: 'basic', planner: true, instruction: workflow.instruction ? `${workflow.instruction}\n\n${own}` : own };
}

async function runChain(run: WorkflowRun, workflow: WorkflowDefinition, userText: string): Promise<string> {
  let previous: { agent: string; answer: string } | undefined;
  for (const agent of workflow.agents) previous = { agent: agent.name, answer: await run.step(agent.name, agent, words.chainText(userText, previous)) };
  return previous?.answer ?? '';
}

async function runRouter(run: WorkflowRun, workflow: WorkflowDefinition, userText: string): Promise<string> {
  const reply = await run.step(workflow.name, plannerSpec(workflow, 'router'), words.routerPrompt(userText, workflow.agents));
  const route = words.parseRoute(reply, workflow.agents);
  run.record.route = { agent: route.agent, reason: route.reason };
  if (route.error) run.record.plan_error = route.error;
  const chosen = workflow.agents.find((agent) => agent.name === route.agent);
  return chosen ? run.step(chosen.name, chosen, userText) : '';
}

async function runOrchestrator(run: WorkflowRun, workflow: WorkflowDefinition, userText: string): Promise<string> {
  const reply = await run.step(workflow.name, plannerSpec(workflow, 'orchestrator'), words.planPrompt(userText, workflow.agents, workflow.maxSubtasks));
  const plan = words.parsePlan(reply, workflow.agents, workflow.maxSubtasks);
  run.record.subtasks = plan.subtasks;
  if (plan.error) run.record.plan_error = plan.error;
  if (plan.subtasks.length === 0) return '';
  const results: words.SubtaskResult[] = [];
  for (const subtask of plan.subtasks) {
    const agent = workflow.agents.find((candidate) => candidate.name === subtask.agent) as WorkflowAgent;
    const answer = await run.step(agent.name, agent, words.subtaskText(userText, subtask.task, results));
    results.push({ ...subtask, answer });
  }
  return run.step(workflow.name, plannerSpec(workflow, 'orchestrator'), words.composeText(userText, results));
}

const runners = { chain: runChain, router: runRouter, orchestrator: runOrchestrator };

/** Runs the workflow of `deps.options.workflow` as the task's one episode. */
export async function runWorkflow(input: EpisodeInput, deps: EpisodeDeps, workflow: WorkflowDefinition): Promise<EpisodeTrace> {
  const run = new WorkflowRun(input, deps, workflow);
  run.trace.finalReply = await runners[workflow.type](run, workflow, input.userText);
  safeEmit(deps.onEvent, { type: 'final', taskId: input.taskId, text: run.trace.finalReply, rounds: run.trace.rounds.length });
  return run.trace;
}
