// The models the demo offers. Drivers come from the same registry as the benchmark and are
// created once at start; a model whose driver cannot be created (a missing key, a bad URL)
// stays listed with its reason, so the page can say what to fix. The page only ever sees ids
// and those redacted reasons, never an endpoint's key.
import type { EnvMap } from '../config/env-file.js';
import { errorMessage } from '../errors/index.js';
import { createDriver } from '../llm/registry.js';
import type { ModelDriver } from '../llm/types.js';
import { redactText } from '../log/redact.js';

interface ModelEntry {
  id: string;
  driver?: ModelDriver;
  /** Why the driver is unavailable. */
  error?: string;
}

export interface ModelChoice {
  models: ModelEntry[];
  /** Shown on the page when no model is usable. */
  note?: string;
}

/**
 * With no --model: an OpenAI-compatible server named by OPENAI_BASE_URL is asked for its
 * models (GET /models) and the first one is used; otherwise the demo runs without a model.
 */
async function discoverDefaultModel(env: EnvMap, timeoutMs = 3000): Promise<{ spec?: string; note: string }> {
  const baseUrl = env.OPENAI_BASE_URL?.trim();
  if (!baseUrl) {
    return {
      note: 'No model is configured: start the demo with --model provider:model (e.g. --model openai:gpt-4o), or set OPENAI_BASE_URL to an OpenAI-compatible server. The tool playground works without a model.',
    };
  }
  const key = env.OPENAI_API_KEY?.trim();
  try {
    const response = await fetch(`${baseUrl.replace(/\/+$/, '')}/models`, {
      headers: key ? { authorization: `Bearer ${key}` } : {},
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const body = (await response.json()) as { data?: Array<{ id?: unknown }> };
    const first = body.data?.find((entry) => typeof entry.id === 'string')?.id as string | undefined;
    if (!first) throw new Error('the server lists no models');
    return { spec: `openai:${first}`, note: `Using the first model of the OpenAI-compatible server at OPENAI_BASE_URL (${first}).` };
  } catch (error) {
    return {
      note: `No model is configured, and the OpenAI-compatible server at OPENAI_BASE_URL could not list its models (${redactText(errorMessage(error))}). Start the demo with --model provider:model.`,
    };
  }
}

export async function createModelChoice(specs: readonly string[], env: EnvMap, timeoutMs: number): Promise<ModelChoice> {
  let note: string | undefined;
  let wanted = [...new Set(specs.map((spec) => spec.trim()).filter(Boolean))];
  if (wanted.length === 0) {
    const discovered = await discoverDefaultModel(env);
    note = discovered.note;
    wanted = discovered.spec ? [discovered.spec] : [];
  }
  const models: ModelEntry[] = [];
  for (const id of wanted) {
    try {
      models.push({ id, driver: await createDriver(id, { env, timeoutMs }) });
    } catch (error) {
      models.push({ id, error: redactText(errorMessage(error)) });
    }
  }
  if (models.length > 0 && models.every((model) => model.error)) note = 'None of the configured models can be used: see the reason next to each.';
  return { models, ...(note ? { note } : {}) };
}
