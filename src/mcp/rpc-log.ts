// The raw JSON-RPC log of one server session, for the demo's playground (what MCP Inspector
// calls its history): every message the host sent and received, newest last, in a ring buffer
// of a fixed number of entries. Each message is copied at capture time with long base64
// payloads (images) replaced by a size note and every secret masked (src/log/redact.ts), so
// the buffer never holds image bytes or a credential; the agent's own copy is untouched.
// One server session serves every caller of a shared host (all demo sessions), so each entry
// remembers whose call it belongs to: the task id of the request's call context (a response
// inherits its request's). `listFor` shows a caller its own entries and the protocol's shared,
// payload-free traffic (initialize, the list requests, ping); never another caller's calls, and
// never a message nobody owns (a server's log or progress notification may quote any call).
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { CALL_CONTEXT_META_KEY } from '../core/tool-result-contract.js';
import { redactValue } from '../log/redact.js';
import { elideBase64Text } from '../store/json-column.js';

type RpcDirection = 'sent' | 'received';

export interface RpcLogEntry {
  /** 1, 2, ... over the session's life; a gap at the start means older entries were dropped. */
  seq: number;
  at: string;
  direction: RpcDirection;
  kind: 'request' | 'response' | 'error' | 'notification';
  /** The request's method; for a response, the method of the request it answers (when still known). */
  method?: string;
  id?: string | number;
  /** The message's params, result or error, redacted and with base64 payloads elided. */
  payload: unknown;
}

/** A request id is remembered this long (in requests) to name the method of its response. */
const pendingLimit = 1000;

/** Messages that carry nothing of any caller: shown to every caller. */
const sharedMethods = new Set([
  'initialize',
  'notifications/initialized',
  'ping',
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'prompts/list',
  'notifications/tools/list_changed',
  'notifications/resources/list_changed',
  'notifications/prompts/list_changed',
]);

interface OwnedEntry extends RpcLogEntry {
  /** The task id of the call context the message belongs to; undefined for shared or unknown traffic. */
  owner: string | undefined;
}

/** The task id in a request's `_meta` call context (src/core/tool-result-contract.ts), if any. */
function ownerOf(message: JSONRPCMessage): string | undefined {
  if (!('method' in message)) return undefined;
  const meta = (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  const context = meta?.[CALL_CONTEXT_META_KEY] as { taskId?: unknown } | undefined;
  return typeof context?.taskId === 'string' ? context.taskId : undefined;
}

function kindOf(message: JSONRPCMessage): RpcLogEntry['kind'] {
  if ('method' in message) return 'id' in message ? 'request' : 'notification';
  return 'error' in message ? 'error' : 'response';
}

function payloadOf(message: JSONRPCMessage): unknown {
  if ('method' in message) return message.params;
  if ('error' in message) return message.error;
  return 'result' in message ? message.result : undefined;
}

function withoutOwner({ owner: _owner, ...entry }: OwnedEntry): RpcLogEntry {
  return entry;
}

export class RpcLog {
  private readonly entries: OwnedEntry[] = [];
  private seq = 0;
  private readonly pending = new Map<string, { method: string; owner: string | undefined }>();

  constructor(readonly maxEntries: number) {}

  record(direction: RpcDirection, message: JSONRPCMessage): void {
    const kind = kindOf(message);
    const id = 'id' in message && message.id !== undefined ? message.id : undefined;
    let method = 'method' in message ? message.method : undefined;
    let owner = ownerOf(message);
    // Ids are per direction: the server's own requests (sampling, roots) number from 0 as ours do.
    const key = `${direction}:${String(id)}`;
    const answered = `${direction === 'sent' ? 'received' : 'sent'}:${String(id)}`;
    if (kind === 'request' && method) {
      this.pending.set(key, { method, owner });
      if (this.pending.size > pendingLimit) this.pending.delete(this.pending.keys().next().value ?? '');
    } else if (kind === 'response' || kind === 'error') {
      const request = this.pending.get(answered);
      method = request?.method;
      owner = request?.owner;
      this.pending.delete(answered);
    }
    this.seq += 1;
    this.entries.push({
      seq: this.seq,
      at: new Date().toISOString(),
      direction,
      kind,
      ...(method ? { method } : {}),
      ...(id !== undefined ? { id } : {}),
      payload: redactValue(payloadOf(message), { before: elideBase64Text }),
      owner,
    });
    if (this.entries.length > this.maxEntries) this.entries.splice(0, this.entries.length - this.maxEntries);
  }

  /** Every entry with `seq` above `after`, oldest first (a copy): all callers' traffic, for the host's owner only. */
  list(after = 0): RpcLogEntry[] {
    return this.entries.filter((entry) => entry.seq > after).map(withoutOwner);
  }

  /** What one caller (a task id) may see after `after`: its own messages and the shared protocol traffic. */
  listFor(owner: string, after = 0): RpcLogEntry[] {
    return this.entries
      .filter((entry) => entry.seq > after && (entry.owner === owner || (entry.owner === undefined && sharedMethods.has(entry.method ?? ''))))
      .map(withoutOwner);
  }

  /** How many entries were ever recorded (the newest seq). */
  get total(): number {
    return this.seq;
  }
}
