// Which task a tool call belongs to, as the host tells our servers in the request's `_meta`
// (src/core/tool-result-contract.ts). Servers keep per-task state under the task id and write
// outputs and downloads into the task's workspace; without a context (a third-party client, the
// MCP Inspector) they fall back to one shared default folder and one shared state.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { readCallContext, type CallContext } from '../../src/core/tool-result-contract.js';
import { allowedRoots, resolveAllowedPath } from './allowed-roots.js';

/** Key for per-task state when a call carries no context. */
export const NO_TASK = '(no task)';

/** The call context from a tool handler's `extra`, if the host sent a valid one. */
export function callContextOf(extra: { _meta?: unknown } | undefined): CallContext | undefined {
  return readCallContext(extra?._meta);
}

/** The task id to key per-task state by. */
export function taskKeyOf(extra: { _meta?: unknown } | undefined): string {
  return callContextOf(extra)?.taskId ?? NO_TASK;
}

/**
 * The folder this call's outputs go to: the task's workspace (confined to the allowed roots),
 * else media/outputs/. Created when missing.
 */
export function workspaceOf(extra: { _meta?: unknown } | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const context = callContextOf(extra);
  const roots = allowedRoots(env);
  const dir = context ? resolveAllowedPath(context.workspace, roots) : path.join(roots[0] ?? path.resolve('media'), 'outputs');
  mkdirSync(dir, { recursive: true });
  return dir;
}
