// The tool playground: any tool of the shared host called directly, no model involved, through
// the same checked tool call as the agent (src/mcp/checked-call.ts), and the images a tool
// returns (inline, or files it names) are stored in the session like the agent's, so the page
// shows them and later calls can pick them as inputs.
import { z } from 'zod';
import { withToolImages } from '../agent/tool-images.js';
import { callCheckedTool } from '../mcp/checked-call.js';
import { sessionAgentOptions, sessionCallContext, type DemoContext } from './context.js';
import { HttpError } from '../web/http-kit.js';
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

export async function callToolFromPage(
  context: Pick<DemoContext, 'host' | 'agentOptions' | 'images' | 'root'>,
  session: Session,
  request: ToolCallRequest,
  signal: AbortSignal,
): Promise<PlaygroundResult> {
  // The page lists tools by canonical name; anything else is a request for a tool that is not there.
  if (!context.host.findByCanonical(request.tool)) throw new HttpError(404, `tool: no tool "${request.tool}" is running (see the tool list)`, 'unknown_tool');
  const outcome = await callCheckedTool(context.host, request.tool, request.arguments, {
    context: sessionCallContext(context, session),
    timeoutMs: context.agentOptions.toolCallTimeoutMs,
    signal,
  });
  const options = sessionAgentOptions(context, session);
  const shown = await withToolImages(outcome, options.imagePolicy, options.imageRoots, context.root);
  const images = await storeToolImages(session, shown.images, outcome.canonicalName, context.images);
  return {
    tool: outcome.canonicalName,
    text: shown.text,
    isError: outcome.isError,
    ...(outcome.errorCode ? { errorCode: outcome.errorCode } : {}),
    durationMs: outcome.durationMs,
    images,
  };
}
