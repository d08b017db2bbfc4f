// The per-task prompt hash: sha256 over the task's question, the sha256 of each of its image
// files (in order) and the hash of the tool surface the run offered. It names the task as the
// model faces it, so a trend line or a paired comparison can tell "same task" from "a task whose
// wording, image or tools changed". Conditions and trials do not enter it: a condition is its own
// dimension of a batch, and every trial of a task shares the hash.
import { createHash } from 'node:crypto';
import { stableStringify } from '../mcp/tools-hash.js';
import { sha256OfFile } from './manifest.js';

export interface PromptParts {
  question: string;
  imageFiles: readonly string[];
  toolsHash: string;
}

export function promptHash(parts: PromptParts): string {
  const images = parts.imageFiles.map((file) => sha256OfFile(file) ?? `missing:${file}`);
  return createHash('sha256')
    .update(stableStringify({ question: parts.question, images, tools: parts.toolsHash }))
    .digest('hex');
}

/** One hash over a run's tasks (`id:promptHash`, sorted by id): its task set as a whole. */
export function taskSetHash(hashes: ReadonlyMap<string, string>): string {
  const lines = [...hashes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([id, hash]) => `${id}:${hash}`);
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}
