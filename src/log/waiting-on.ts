// "waiting on ...": the progress line says what a task is waiting on when one tool call takes
// longer than a few seconds (a web call that is slow to fail, a queued OCR call), so a run that
// seems stuck says why. Fed with the agent's tool_call_start / tool_call_end events; each slow
// call is announced once, when it passes the threshold, with its timeout.

/** The fields of the agent's tool-call events this reads (src/agent/events.ts; structural, so log/ imports nothing above it). */
interface ToolCallEvent {
  type: string;
  taskId?: string;
  callId?: string;
  name?: string;
}

export interface WaitingOnOptions {
  /** Called with e.g. "waiting on paper_search/download_arxiv (task 0001): real call for 5 s, timeout 60 s". */
  announce: (text: string) => void;
  /** A call is announced once it has run this long. Default 5000. */
  thresholdMs?: number;
  /** The per-call timeout (M3_TOOL_CALL_TIMEOUT), in ms; 0 or undefined: none. */
  callTimeoutMs?: number;
  /** How often in-flight calls are looked at. Default 1000. */
  checkEveryMs?: number;
  now?: () => number;
}

interface InFlight {
  taskId: string;
  name: string;
  startedAt: number;
  announced: boolean;
}

export interface WaitingOn {
  observe(event: ToolCallEvent): void;
  /** Looks at the calls in flight now (the timer calls it; tests may too). */
  check(): void;
  stop(): void;
}

function describeWait(call: { taskId: string; name: string }, elapsedMs: number, callTimeoutMs: number | undefined): string {
  const timeout = callTimeoutMs ? `timeout ${Math.round(callTimeoutMs / 1000)} s` : 'no timeout';
  return `waiting on ${call.name} (task ${call.taskId}): real call for ${Math.round(elapsedMs / 1000)} s, ${timeout}`;
}

export function createWaitingOn(options: WaitingOnOptions): WaitingOn {
  const threshold = options.thresholdMs ?? 5000;
  const now = options.now ?? Date.now;
  const inFlight = new Map<string, InFlight>();
  const check = () => {
    const time = now();
    for (const call of inFlight.values()) {
      if (call.announced || time - call.startedAt < threshold) continue;
      call.announced = true;
      options.announce(describeWait(call, time - call.startedAt, options.callTimeoutMs));
    }
  };
  const timer = setInterval(check, options.checkEveryMs ?? 1000);
  timer.unref();
  return {
    observe(event) {
      if (event.type === 'tool_call_start')
        inFlight.set(`${event.taskId}#${event.callId}`, { taskId: event.taskId ?? '', name: event.name ?? '', startedAt: now(), announced: false });
      else if (event.type === 'tool_call_end') inFlight.delete(`${event.taskId}#${event.callId}`);
    },
    check,
    stop: () => clearInterval(timer),
  };
}
