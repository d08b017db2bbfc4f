// The file trace collector (`--trace-file`): one JSONL file per run beside the SQLite store,
// `<results>/<label>.trace.jsonl`, written from the same event stream the store recorder and
// the progress line consume (run-batch.ts hands every episode event to both), so the trace and
// the store can never tell different stories. One line per record, in arrival order:
//
//   {"seq": 1, "ts": "2026-...Z", "runId": "...", "trial": 1, "attempt": 1, "event": {"type": "episode_start", ...}}
//   ... every AgentEvent (src/agent/events.ts) of every task ...
//   {"seq": n, "ts": "...", "runId": "...", "trial": 1, "attempt": 1, "event": {"type": "task_end", "taskId": "...", "status": "ok"}}
//
// Secrets are masked value by value before serialising (src/log/redact.ts). Image bytes a tool
// returned are left out (their facts stay): the trace says what happened, the files hold the
// pixels.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AgentEvent } from '../agent/events.js';
import { toRedactedJson } from '../log/redact.js';

/** A task's attempt finished: `ok`, or the failure status it ended with. */
interface TaskEndEvent {
  type: 'task_end';
  taskId: string;
  status: string;
  message?: string;
}

type TracedEvent = AgentEvent | TaskEndEvent;

function withoutImageBytes(event: TracedEvent): TracedEvent {
  if (event.type !== 'tool_call_end') return event;
  return { ...event, images: event.images.map(({ data: _data, ...facts }) => facts) };
}

export class TraceFile {
  private seq = 0;

  constructor(
    readonly file: string,
    private readonly context: { runId: string; trial: number },
    append: boolean,
  ) {
    mkdirSync(path.dirname(file), { recursive: true });
    // A trace describes one run: a fresh run starts a fresh file, a --resume appends to it.
    if (!append) writeFileSync(file, '');
  }

  write(event: TracedEvent, attempt: number): void {
    this.seq += 1;
    const record = { seq: this.seq, ts: new Date().toISOString(), ...this.context, attempt, event: withoutImageBytes(event) };
    appendFileSync(this.file, `${toRedactedJson(record)}\n`);
  }
}

export function traceFileFor(resultsDir: string, label: string): string {
  return path.join(resultsDir, `${label}.trace.jsonl`);
}
