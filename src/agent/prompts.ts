// The words the harness says to the model. Kept in one place so a change of wording is one
// diff, and so the replay driver and real models see exactly the same requests.
import type { CatalogTool } from '../mcp/types.js';
import type { AgentKind } from './agent-kind.js';
import { reactSystemSuffix } from './react-actions.js';

function systemPrompt(maxStep: number, maxConcurrent: number): string {
  return [
    "You are an agent that completes the user's task by calling the available MCP tools.",
    'Call tools through the tool-calling interface. Independent calls can be made together in one round; they run in parallel.',
    `You have at most ${maxStep} rounds of tool calls and at most ${maxConcurrent} calls per round.`,
    'Plan only the necessary steps and take results of earlier rounds into account: unnecessary calls lower your score.',
    'Tools that need an image take a file path: use the paths listed in the task or returned by earlier tools.',
    'When the task is complete, answer in plain language without calling any tool.',
  ].join('\n');
}

/** The system prompt of each agent kind; `react` carries the tool catalog and the action format. */
export function systemPromptFor(kind: AgentKind, maxStep: number, maxConcurrent: number, tools: readonly CatalogTool[]): string {
  if (kind === 'function-call') return systemPrompt(maxStep, maxConcurrent);
  if (kind === 'basic')
    return "You are an assistant that answers the user's task directly. No tools are available; answer from the task and its images, concisely and accurately.";
  return [
    "You are an agent that completes the user's task by calling the available MCP tools.",
    `You have at most ${maxStep} rounds of actions and at most ${maxConcurrent} actions per round.`,
    'Plan only the necessary steps and take results of earlier rounds into account: unnecessary calls lower your score.',
    'Tools that need an image take a file path: use the paths listed in the task or returned by earlier tools.',
    reactSystemSuffix(tools),
  ].join('\n');
}

export function reactRoundInstruction(round: number, maxStep: number, maxConcurrent: number): string {
  const last = round === maxStep ? ' This is the last round in which actions can be taken.' : '';
  return `Round ${round} of ${maxStep}: write a Thought and an Action with the tool calls needed now (at most ${maxConcurrent}, run in parallel), or a Final Answer if the task is complete.${last}`;
}

export function roundInstruction(round: number, maxStep: number, maxConcurrent: number): string {
  const last = round === maxStep ? ' This is the last round in which tools can be called.' : '';
  return `Round ${round} of ${maxStep}: make the tool calls needed now (at most ${maxConcurrent}, in parallel), or give the final answer if the task is complete.${last}`;
}

export const basicInstruction = 'Answer the task now: concise and accurate.';

export const finalInstruction =
  'Give the final answer now, based on the tool results above. Do not call tools and do not mention tool names; be concise and accurate.';

export function prepareInstruction(round: number, maxStep: number, tools: readonly CatalogTool[]): string {
  const catalog = tools.map((tool) => `${tool.canonicalName}: ${tool.description.split('\n')[0] ?? ''}`).join('\n');
  return [
    `Round ${round} of ${maxStep}. Before calling tools, list the tools you will use in this round, one per line as "server/tool: why", then a one-line plan. Do not call tools yet.`,
    'Available tools:',
    catalog,
  ].join('\n');
}

export const endInstruction = 'Given the tool results so far and the original task, is the task complete? Reply with exactly one word: yes or no.';

export function stripThinking(text: string): string {
  return text.replace(/<think>[\s\S]*?<\/think>/gi, '').trim();
}

/** Robust yes/no: the first yes or no word after reasoning is removed. */
export function parseEndVerdict(text: string): 'yes' | 'no' {
  const match = /\b(yes|no)\b/i.exec(stripThinking(text));
  return match?.[1]?.toLowerCase() === 'yes' ? 'yes' : 'no';
}

/** Canonical names mentioned in a prepare-stage answer, in catalog order. */
export function selectedTools(text: string, tools: readonly CatalogTool[]): CatalogTool[] {
  const lower = text.toLowerCase();
  return tools.filter((tool) => lower.includes(tool.canonicalName.toLowerCase()));
}
