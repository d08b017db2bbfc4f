// Demo sessions, in memory: each has its images (uploads and tool outputs, by generated id),
// a bounded conversation that later messages get as prior turns, a one-episode-at-a-time lock,
// and a bounded buffer of page events with increasing ids so an EventSource that reconnects
// (Last-Event-ID) misses nothing. The number of sessions is bounded too: the idle ones go first.
import { randomBytes } from 'node:crypto';
import type { Message } from '../core/messages.js';
import type { PageEvent } from './page-events.js';

export interface SessionImage {
  /** `<sha256 prefix>.<ext>`: the only name the page and the URL use. */
  id: string;
  /** Absolute path on disk. */
  file: string;
  /** The path tools are given (`./media/uploads/<session>/<id>`). */
  displayPath: string;
  url: string;
  mediaType: string;
  width: number;
  height: number;
  bytes: number;
  kind: 'upload' | 'tool';
  /** The tool that produced it, or "upload". */
  source: string;
}

export interface Turn {
  episodeId: string;
  question: string;
  /** The question plus the image lines, as the model saw it. */
  userText: string;
  imageIds: string[];
  model: string;
  reply: string;
  status: 'ok' | 'cancelled' | 'error';
}

interface BufferedEvent {
  id: number;
  event: PageEvent;
}

export type EventListener = (id: number, event: PageEvent) => void;

const sessionIdPattern = /^[A-Za-z0-9_-]{8,64}$/;

export class Session {
  readonly images = new Map<string, SessionImage>();
  readonly turns: Turn[] = [];
  lastActive = Date.now();
  running: { episodeId: string; controller: AbortController } | undefined;
  private readonly buffer: BufferedEvent[] = [];
  private readonly listeners = new Set<EventListener>();
  private nextId = 1;

  constructor(
    readonly id: string,
    /** The owner key of the visitor that created it (src/demo/visitor.ts). */
    readonly owner: string,
    private readonly limits: { maxTurns: number; maxBufferedEvents: number },
  ) {}

  /** Takes the session's lock for one episode; false when one is already running. */
  tryStart(episodeId: string): AbortController | undefined {
    if (this.running) return undefined;
    const controller = new AbortController();
    this.running = { episodeId, controller };
    return controller;
  }

  finish(episodeId: string): void {
    if (this.running?.episodeId === episodeId) this.running = undefined;
  }

  addTurn(turn: Turn): void {
    this.turns.push(turn);
    // The conversation is bounded: older turns drop out of what the model sees and of memory.
    if (this.turns.length > this.limits.maxTurns) this.turns.splice(0, this.turns.length - this.limits.maxTurns);
  }

  /** The finished turns as model messages: user text, then the assistant's final reply. */
  priorMessages(): Message[] {
    return this.turns
      .filter((turn) => turn.status === 'ok' && turn.reply !== '')
      .flatMap((turn): Message[] => [
        { role: 'user', content: [{ type: 'text', text: turn.userText }] },
        { role: 'assistant', content: [{ type: 'text', text: turn.reply }], toolCalls: [] },
      ]);
  }

  publish(event: PageEvent): void {
    const id = this.nextId;
    this.nextId += 1;
    this.buffer.push({ id, event });
    if (this.buffer.length > this.limits.maxBufferedEvents) this.buffer.splice(0, this.buffer.length - this.limits.maxBufferedEvents);
    for (const listener of this.listeners) listener(id, event);
  }

  /** Replays buffered events after `afterId`, then streams new ones until the returned function is called. */
  subscribe(listener: EventListener, afterId: number): () => void {
    for (const entry of this.buffer) if (entry.id > afterId) listener(entry.id, entry.event);
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get lastEventId(): number {
    return this.nextId - 1;
  }
}

export interface SessionLimits {
  maxSessions: number;
  maxTurns: number;
  maxBufferedEvents: number;
}

export class SessionStore {
  private readonly sessions = new Map<string, Session>();

  constructor(private readonly limits: SessionLimits) {}

  create(owner: string): Session {
    this.evictIdle();
    const session = new Session(randomBytes(12).toString('base64url'), owner, this.limits);
    this.sessions.set(session.id, session);
    return session;
  }

  /** The session with this id, if `owner` (the requesting visitor) created it. */
  get(id: string, owner: string | undefined): Session | undefined {
    const found = sessionIdPattern.test(id) ? this.sessions.get(id) : undefined;
    const session = found && owner !== undefined && found.owner === owner ? found : undefined;
    if (session) session.lastActive = Date.now();
    return session;
  }

  all(): Session[] {
    return [...this.sessions.values()];
  }

  private evictIdle(): void {
    if (this.sessions.size < this.limits.maxSessions) return;
    const idle = this.all()
      .filter((session) => !session.running)
      .sort((a, b) => a.lastActive - b.lastActive);
    for (const session of idle.slice(0, this.sessions.size - this.limits.maxSessions + 1)) this.sessions.delete(session.id);
  }
}
