// The words a workflow says to its planning model and passes between its agents
// (src/agent/workflow.ts), and the strict readers of the planning replies: a router answers
// {"agent", "reason"}, an orchestrator {"subtasks": [{"agent", "task"}]}, as JSON (a ```json
// fence or the outermost braces of the reply). What cannot be read is recorded, never guessed.
import { z } from 'zod';
import type { WorkflowAgent } from './workflow-definition.js';
import { clip } from '../core/number-format.js';

function agentList(agents: readonly WorkflowAgent[]): string {
  return agents
    .map((agent) => {
      const tools = agent.kind === 'basic' ? 'no tools' : agent.servers ? `tools of ${agent.servers.join(', ')}` : "all of the task's tools";
      return `- "${agent.name}" (${agent.kind}; ${tools}): ${agent.instruction ?? '(no instruction)'}`;
    })
    .join('\n');
}

export function routerPrompt(userText: string, agents: readonly WorkflowAgent[]): string {
  return [
    'Route the task below to the ONE agent best able to solve it; that agent then works on the task alone.',
    'Agents:',
    agentList(agents),
    'Reply with only a JSON object: {"agent": "<one of the agent names above>", "reason": "<why this agent>"}',
    '',
    'Task:',
    userText,
  ].join('\n');
}

export function planPrompt(userText: string, agents: readonly WorkflowAgent[], maxSubtasks: number): string {
  return [
    `Plan the task below as at most ${maxSubtasks} subtasks, each for one of these agents. The subtasks run in the order you give; each agent sees the results of the earlier subtasks, and the final answer is composed from all results.`,
    'Agents:',
    agentList(agents),
    'Reply with only a JSON object: {"subtasks": [{"agent": "<agent name>", "task": "<what this agent must do>"}]}',
    '',
    'Task:',
    userText,
  ].join('\n');
}

export interface SubtaskResult {
  agent: string;
  task: string;
  answer: string;
}

function resultsBlock(results: readonly SubtaskResult[]): string {
  return results.map((result, index) => `${index + 1}. ${result.agent}: ${result.task}\n${result.answer}`).join('\n\n');
}

export function subtaskText(userText: string, task: string, results: readonly SubtaskResult[]): string {
  const earlier = results.length > 0 ? `\n\n[results of the earlier subtasks]\n${resultsBlock(results)}` : '';
  return `[overall task]\n${userText}${earlier}\n\n[your subtask]\n${task}`;
}

export function composeText(userText: string, results: readonly SubtaskResult[]): string {
  return `[task]\n${userText}\n\n[results of the subtasks]\n${resultsBlock(results)}\n\nCompose the final answer to the task from these results, in the form the task asks for.`;
}

export function chainText(userText: string, previous: { agent: string; answer: string } | undefined): string {
  return previous ? `${userText}\n\n[answer of the previous agent "${previous.agent}"]\n${previous.answer}` : userText;
}

/** The JSON object of a reply: a ```json fenced block, else the text from its first `{` to its last `}`. */
function jsonOf(reply: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(reply)?.[1];
  const text = fenced ?? reply.slice(reply.indexOf('{'), reply.lastIndexOf('}') + 1);
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const routeSchema = z.object({ agent: z.string(), reason: z.string().optional() });

export function parseRoute(reply: string, agents: readonly WorkflowAgent[]): { agent: string | null; reason: string; error?: string } {
  const parsed = routeSchema.safeParse(jsonOf(reply));
  if (!parsed.success) return { agent: null, reason: '', error: `the router's reply is not a JSON object {"agent", "reason"}: ${clip(reply, 200)}` };
  const wanted = parsed.data.agent.trim();
  const agent = agents.find((candidate) => candidate.name === wanted);
  const reason = parsed.data.reason ?? '';
  if (!agent) return { agent: null, reason, error: `the router picked "${wanted}", which is not one of its agents (${agents.map((a) => a.name).join(', ')})` };
  return { agent: agent.name, reason };
}

const planSchema = z.object({ subtasks: z.array(z.unknown()) });
const subtaskSchema = z.object({ agent: z.string(), task: z.string().min(1) });

/** The plan's usable subtasks in order; entries naming no agent of the workflow, and those past the cap, are dropped and said so. */
export function parsePlan(
  reply: string,
  agents: readonly WorkflowAgent[],
  maxSubtasks: number,
): { subtasks: Array<{ agent: string; task: string }>; error?: string } {
  const plan = planSchema.safeParse(jsonOf(reply));
  if (!plan.success) return { subtasks: [], error: `the orchestrator's plan is not a JSON object {"subtasks": [{"agent", "task"}]}: ${clip(reply, 200)}` };
  const problems: string[] = [];
  const subtasks: Array<{ agent: string; task: string }> = [];
  plan.data.subtasks.forEach((entry, index) => {
    const subtask = subtaskSchema.safeParse(entry);
    if (!subtask.success) problems.push(`subtask ${index + 1} is not {"agent", "task"}`);
    else if (!agents.some((agent) => agent.name === subtask.data.agent.trim()))
      problems.push(`subtask ${index + 1} names "${subtask.data.agent}", not one of the agents`);
    else if (subtasks.length >= maxSubtasks) problems.push(`subtask ${index + 1} is past the limit of ${maxSubtasks}`);
    else subtasks.push({ agent: subtask.data.agent.trim(), task: subtask.data.task });
  });
  if (subtasks.length === 0 && problems.length === 0) problems.push('the plan has no subtasks');
  return { subtasks, ...(problems.length > 0 ? { error: `dropped: ${problems.join('; ')}` } : {}) };
}
