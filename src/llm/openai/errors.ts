// OpenAI SDK failures → error classes (used by `openai:`, `openai-responses:` and every
// OpenAI-compatible preset). The classification itself is vendor-neutral (src/llm/provider-errors.ts);
// this file only supplies the OpenAI SDK's error classes.
import OpenAI from 'openai';
import { classifyStainlessError, type ClassifiedError, type FailureContext } from '../provider-errors.js';
// src/llm/embeddings still imports the shared classifier from here.

export function classifyOpenAiError(error: unknown, context: FailureContext): ClassifiedError {
  return classifyStainlessError(error, OpenAI, context);
}
