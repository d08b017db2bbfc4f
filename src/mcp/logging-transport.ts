// A Transport that passes every JSON-RPC message through to the one it wraps (the SDK's stdio or
// Streamable HTTP client transport) and records a copy in an RpcLog. The client sees the same
// messages, in the same order, with the same callbacks: the wrapper only observes.
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import type { RpcLog } from './rpc-log.js';

export class LoggingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  constructor(
    private readonly inner: Transport,
    private readonly log: RpcLog,
  ) {
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => {
      this.log.record('received', message);
      this.onmessage?.(message, extra);
    };
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    // Logged before the write, so a request always precedes its response in the log.
    this.log.record('sent', message);
    await this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
