// The raw JSON-RPC log of one server session, for the demo's playground (what MCP Inspector
// calls its history): every message the host sent and received, newest last, in a ring buffer
// of a fixed number of entries. Each message is copied at capture time with long base64
// payloads (images) replaced by a size note and every secret masked (src/log/redact.ts), so
// the buffer never holds image bytes or a credential; the agent's own copy is untouched.
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
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

function kindOf(message: JSONRPCMessage): RpcLogEntry['kind'] {
  if ('method' in message) return 'id' in message ? 'request' : 'notification';
  return 'error' in message ? 'error' : 'response';
}

function payloadOf(message: JSONRPCMessage): unknown {
  if ('method' in message) return message.params;
  if ('error' in message) return message.error;
  return 'result' in message ? message.result : undefined;
}

export class RpcLog {
  private readonly entries: RpcLogEntry[] = [];
  private seq = 0;
  private readonly pending = new Map<string, string>();

  constructor(readonly maxEntries: number) {}

  record(direction: RpcDirection, message: JSONRPCMessage): void {
    const kind = kindOf(message);
    const id = 'id' in message && message.id !== undefined ? message.id : undefined;
    let method = 'method' in message ? message.method : undefined;
    // Ids are per direction: the server's own requests (sampling, roots) number from 0 as ours do.
    const key = `${direction}:${String(id)}`;
    const answered = `${direction === 'sent' ? 'received' : 'sent'}:${String(id)}`;
    if (kind === 'request' && method) {
      this.pending.set(key, method);
      if (this.pending.size > pendingLimit) this.pending.delete(this.pending.keys().next().value ?? '');
    } else if (kind === 'response' || kind === 'error') {
      method = this.pending.get(answered);
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
    });
    if (this.entries.length > this.maxEntries) this.entries.splice(0, this.entries.length - this.maxEntries);
  }

  /** Entries with `seq` above `after`, oldest first (a copy). */
  list(after = 0): RpcLogEntry[] {
    return this.entries.filter((entry) => entry.seq > after);
  }

  /** How many entries were ever recorded (the newest seq). */
  get total(): number {
    return this.seq;
  }
}
