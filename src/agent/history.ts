// Model-facing history shaping: tool results are truncated to M3_TOOL_RESULT_MAX_CHARS here
// only; the records (predictions, store) keep the full text.
import type { ToolResultsMessage } from '../core/messages.js';
import type { ExecutedCall } from './call-tools.js';

export function truncateForModel(text: string, maxChars: number): string {
  if (maxChars <= 0 || text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n[... truncated ${text.length - maxChars} of ${text.length} characters]`;
}

export function toolResultsMessage(calls: readonly ExecutedCall[], maxChars: number): ToolResultsMessage {
  return {
    role: 'tool',
    results: calls.map((executed) => ({
      callId: executed.call.id,
      name: executed.call.name,
      isError: executed.isError,
      content: [{ type: 'text', text: truncateForModel(executed.resultText, maxChars) }, ...executed.images],
      ...(executed.undeliveredImages.length > 0 ? { undeliveredImages: executed.undeliveredImages } : {}),
    })),
  };
}
