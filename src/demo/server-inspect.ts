// The playground's view of a server beyond its tools (MCP Inspector's Resources, Prompts and
// History tabs): its declared capabilities, resources and prompts, a resource read, a prompt
// filled in, and the session's JSON-RPC log. Images a resource or a prompt carries are stored
// in the session like a tool's, so the page shows them and tools can take them as inputs.
import { z } from 'zod';
import { errorMessage } from '../errors/index.js';
import type { ServerInspection } from '../mcp/inspection.js';
import { redactValue } from '../log/redact.js';
import { HttpError } from '../web/http-kit.js';
import { CALL_CONTEXT_META_KEY } from '../core/tool-result-contract.js';
import { sessionCallContext, type DemoContext } from './context.js';
import type { PageImage } from './page-events.js';
import { storeToolImages } from './session-images.js';
import type { Session } from './sessions.js';

/** Entries of each server session's JSON-RPC log the demo keeps (the oldest are dropped first). */
export const playgroundRpcLogEntries = 500;

export const readResourceSchema = z.strictObject({ sessionId: z.string().min(1), uri: z.string().min(1, 'choose a resource').max(4096) });
export const getPromptSchema = z.strictObject({
  sessionId: z.string().min(1),
  name: z.string().min(1, 'choose a prompt'),
  arguments: z.record(z.string(), z.string()).default({}),
});

/** The live server, or a 404 naming what is running. */
export function inspectionOf(context: Pick<DemoContext, 'host'>, server: string): ServerInspection {
  const inspection = context.host.inspect?.(server);
  if (!inspection) throw new HttpError(404, `server "${server}" is not running (see the server list)`, 'unknown_server');
  return inspection;
}

async function listed<T>(declared: boolean, list: () => Promise<T[]>): Promise<{ declared: boolean; items: T[]; error?: string }> {
  if (!declared) return { declared, items: [] };
  try {
    return { declared, items: await list() };
  } catch (error) {
    // A declared capability that then fails is the server's failure: shown, not thrown.
    return { declared, items: [], error: errorMessage(error) };
  }
}

export async function serverOverview(inspection: ServerInspection): Promise<unknown> {
  const [resources, prompts] = await Promise.all([
    listed(inspection.capabilities.resources, inspection.listResources),
    listed(inspection.capabilities.prompts, inspection.listPrompts),
  ]);
  return redactValue({ server: inspection.server, capabilities: inspection.capabilities, resources, prompts });
}

type ImageStore = Pick<DemoContext, 'images'>;

/** One content item as the page shows it: text as is, image bytes as a session image, other bytes by size. */
async function pageContent(context: ImageStore, session: Session, source: string, item: { mimeType?: string; text?: string; blob?: string; data?: string }) {
  const base64 = item.blob ?? item.data;
  if (base64 === undefined) return { mimeType: item.mimeType, text: redactValue(item.text ?? '') as string };
  const bytes = Math.floor((base64.length * 3) / 4);
  const images: PageImage[] = item.mimeType?.startsWith('image/') ? await storeToolImages(session, [{ data: base64 }], source, context.images) : [];
  return { mimeType: item.mimeType, bytes, ...(images[0] ? { image: images[0] } : {}) };
}

/** The request `_meta` of a session's resource read or prompt: its call context, so the RPC log shows it to this session only. */
function sessionMeta(context: ImageStore, session: Session): Record<string, unknown> {
  return { [CALL_CONTEXT_META_KEY]: sessionCallContext(context, session) };
}

export async function readResourceFromPage(context: ImageStore, session: Session, inspection: ServerInspection, uri: string): Promise<unknown> {
  const result = await inspection.readResource(uri, sessionMeta(context, session));
  const contents = [];
  for (const item of result.contents) contents.push({ uri: item.uri, ...(await pageContent(context, session, `${inspection.server} ${item.uri}`, item)) });
  return { server: inspection.server, uri, contents };
}

export async function getPromptFromPage(
  context: ImageStore,
  session: Session,
  inspection: ServerInspection,
  name: string,
  args: Record<string, string>,
): Promise<unknown> {
  const result = await inspection.getPrompt(name, args, sessionMeta(context, session));
  const messages = [];
  for (const message of result.messages) {
    const content = message.content;
    const source = `${inspection.server} prompt ${name}`;
    const shown =
      content.type === 'text' || content.type === 'image' || content.type === 'audio'
        ? await pageContent(context, session, source, content)
        : content.type === 'resource'
          ? { uri: content.resource.uri, ...(await pageContent(context, session, source, content.resource)) }
          : { uri: content.uri, mimeType: content.mimeType };
    messages.push({ role: message.role, type: content.type, ...shown });
  }
  return { server: inspection.server, name, description: result.description ?? '', messages };
}

/**
 * The server session's JSON-RPC log after `after` as one demo session may see it: its own calls
 * and the shared protocol traffic, never another session's (already redacted and with base64
 * elided at capture). `total` counts every message of the server session.
 */
export function rpcLogOf(inspection: ServerInspection, session: Session, after: number): unknown {
  const log = inspection.rpcLog;
  if (!log) return { server: inspection.server, kept: false, maxEntries: 0, total: 0, entries: [] };
  return { server: inspection.server, kept: true, maxEntries: log.maxEntries, total: log.total, entries: log.listFor(session.id, after) };
}
