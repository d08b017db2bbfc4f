// `--verbose`: a live view of each episode's intermediate steps on stderr (MCP-Universe's vprint
// callbacks), one line per event of the episode stream (src/agent/events.ts): the model's reply
// of each round, every tool call with its arguments and its result, the final answer. Texts
// are cut to a readable length and every part passes the redaction (src/log/redact.ts) before
// it is written, so a key a tool or a model echoes never reaches the terminal.
import type { AgentEvent } from './events.js';
import { redactText, toRedactedJson } from '../log/redact.js';
import { clip as clipText } from '../core/number-format.js';

const MAX_CHARS = 300;

function clip(text: string): string {
  return clipText(text, MAX_CHARS, { flatten: true, marker: (whole) => `... (${whole.length} chars)` });
}

/** The line an event shows, or undefined for events the view skips. */
function verboseLine(event: AgentEvent): string | undefined {
  const at = event.agent ? `[${event.taskId}] [${event.agent}]` : `[${event.taskId}]`;
  switch (event.type) {
    case 'episode_start':
      return `${at} question: ${clip(redactText(event.question))}${event.images.length > 0 ? ` (images: ${event.images.length})` : ''}`;
    case 'round_start':
      return `${at} round ${event.round}`;
    case 'model_call': {
      if (event.error) return `${at} model ${event.purpose} failed: ${clip(redactText(event.error.message))}`;
      const calls = event.toolCallCount > 0 ? ` -> ${event.toolCallCount} tool call(s)` : '';
      return `${at} model ${event.purpose}: ${clip(redactText(event.text)) || '(no text)'}${calls}`;
    }
    case 'tool_call_start':
      return `${at} call ${event.name} ${clip(toRedactedJson(event.arguments ?? null))}`;
    case 'tool_call_end':
      return `${at} ${event.isError ? `error${event.errorCode ? ` (${event.errorCode})` : ''}` : 'result'} ${event.name}: ${clip(redactText(event.result))}`;
    case 'final':
      if (event.plan) return `${at} plan: ${clip(redactText(event.text))}`;
      // Inside a workflow each agent's answer is a step, not the task's answer (that one has no agent).
      if (event.agent) return `${at} answer of ${event.agent} after ${event.rounds} round(s): ${clip(redactText(event.text))}`;
      return `${at} final answer after ${event.rounds} round(s): ${clip(redactText(event.text))}`;
    default:
      return undefined;
  }
}

/** A listener that writes the view to stderr. */
export function createVerboseView(write: (line: string) => void = (line) => process.stderr.write(line)): (event: AgentEvent) => void {
  return (event) => {
    const line = verboseLine(event);
    if (line !== undefined) write(`${line}\n`);
  };
}
