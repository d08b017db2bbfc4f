// The tool playground: any tool of the shared host called directly, no model involved. The
// arguments are checked against the tool's JSON Schema first (the same checker the agent uses),
// and the images a tool returns (inline, or files it names) are stored in the session like the
// agent's, so the page shows them and later calls can pick them as inputs.
import { z } from 'zod';
import { checkerFor } from '../agent/argument-check.js';
import { imagesFromOutcome } from '../agent/tool-images.js';
import type { DemoContext } from './context.js';
import { HttpError } from './http-kit.js';
import type { PageImage } from './page-events.js';
import { storeToolImages } from './session-images.js';
import type { Session } from './sessions.js';

export const toolCallSchema = z.strictObject({
  sessionId: z.string().min(1),
  tool: z.string().min(1, 'choose a tool'),
  arguments: z.record(z.string(), z.unknown()).default({}),
});

export type ToolCallRequest = z.output<typeof toolCallSchema>;

export interface PlaygroundResult {
  tool: string;
  text: string;
  isError: boolean;
  errorCode?: string;
  durationMs: number;
  images: PageImage[];
}

export async function callToolFromPage(context: DemoContext, session: Session, request: ToolCallRequest, signal: AbortSignal): Promise<PlaygroundResult> {
  const tool = context.host.findByCanonical(request.tool);
  if (!tool) throw new HttpError(404, `tool: no tool "${request.tool}" is running (see the tool list)`, 'unknown_tool');
  const problem = checkerFor(context.host).check(tool, request.arguments);
  if (problem) {
    return { tool: tool.canonicalName, text: `[Tool error] Invalid arguments for ${tool.canonicalName}: ${problem}`, isError: true, errorCode: 'invalid_arguments', durationMs: 0, images: [] };
  }
  const outcome = await context.host.callTool(tool.canonicalName, request.arguments, { timeoutMs: context.agentOptions.toolCallTimeoutMs, signal });
  const extracted = await imagesFromOutcome(outcome, context.agentOptions.imagePolicy, context.agentOptions.imageRoots, context.root);
  const images = await storeToolImages(session, extracted.images, tool.canonicalName, context.images);
  const notes = extracted.notes.length > 0 ? `\n[image note] ${extracted.notes.join('; ')}` : '';
  return {
    tool: tool.canonicalName,
    text: outcome.text + notes,
    isError: outcome.isError,
    ...(outcome.errorCode ? { errorCode: outcome.errorCode } : {}),
    durationMs: outcome.durationMs,
    images,
  };
}
