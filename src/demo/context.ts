// Everything the demo's routes share: settings, the one MCP host (and its per-server-set
// views), the models, the sessions, the agent options and the optional run store recorder.
import type { AgentOptions, LoopLimits } from '../agent/options.js';
import type { CallContext } from '../core/tool-result-contract.js';
import type { Logger } from '../log/logger.js';
import type { ToolHost } from '../mcp/types.js';
import type { DemoRecorder } from './demo-recorder.js';
import type { ModelChoice } from './models.js';
import { sessionWorkspace, type ImageStoreSettings } from './session-images.js';
import type { Session, SessionStore } from './sessions.js';
import type { ToolViews } from './tool-view.js';

export interface DemoLimits {
  /** Bytes per uploaded image. */
  maxUploadBytes: number;
  /** Images attached to one message. */
  maxImagesPerMessage: number;
  /** Images (uploads and tool outputs) kept per session. */
  maxImagesPerSession: number;
  /** Bytes of a JSON request body. */
  maxJsonBytes: number;
  /** Characters of one message. */
  maxMessageChars: number;
  /** Finished turns a session keeps and passes to the model as prior turns. */
  maxTurns: number;
  maxSessions: number;
  maxBufferedEvents: number;
}

export const defaultDemoLimits: DemoLimits = {
  maxUploadBytes: 10 * 1024 * 1024,
  maxImagesPerMessage: 6,
  maxImagesPerSession: 60,
  maxJsonBytes: 256 * 1024,
  maxMessageChars: 20_000,
  maxTurns: 8,
  maxSessions: 50,
  maxBufferedEvents: 2000,
};

export interface DemoContext {
  host: ToolHost;
  views: ToolViews;
  models: ModelChoice;
  sessions: SessionStore;
  loopLimits: LoopLimits;
  agentOptions: AgentOptions;
  images: ImageStoreSettings;
  limits: DemoLimits;
  /** The repo root: tools resolve relative paths against it. */
  root: string;
  logDir: string;
  recorder: DemoRecorder | undefined;
  logger: Logger;
  /** Episodes still running, so close() can wait for their logs and store rows. */
  running: Set<Promise<void>>;
}

/**
 * The call context of every tool call a session makes (chat and playground alike): the session
 * is the unit of per-task state in servers, and its folder is its workspace. The uploads folder
 * holds every session's files, so the servers are told to allow this workspace alone
 * (`workspaceOnly`): a session that learns another's image path can neither read nor overwrite it.
 */
export function sessionCallContext(context: Pick<DemoContext, 'images'>, session: Session): CallContext {
  return { taskId: session.id, runId: 'demo', workspace: sessionWorkspace(context.images, session), workspaceOnly: true };
}

/** The agent options of a session's calls: images named in tool results are read from its workspace only. */
export function sessionAgentOptions(context: Pick<DemoContext, 'images' | 'agentOptions'>, session: Session): AgentOptions {
  return { ...context.agentOptions, imageRoots: [sessionWorkspace(context.images, session)] };
}
