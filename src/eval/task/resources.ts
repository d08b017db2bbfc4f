// RADAR's computational resource efficiency: tokens per task, from the run store (the prediction
// file does not carry usage), and its max-min normalisation across the models of a report.
//
// Per task: input + output tokens of the episode that produced the prediction (the last
// non-infrastructure attempt of each trial, averaged over trials). Per model and domain: the
// mean over the tasks that have usage. Across models, per domain:
//   efficiency = (max - tokens) / (max - min)      1 = the leanest model, 0 = the hungriest;
//   all models equal (max = min): 1 for every model.
// Replay agents make no model requests, so their usage is 0 and the normalisation says nothing.
import { existsSync } from 'node:fs';
import { episodesForRun, openStore } from '../../store/index.js';

export interface TaskTokens {
  input: number;
  output: number;
  total: number;
}

/** Tokens per task id of one run (and model), or an empty map when the store or run is absent. */
export function readTaskTokens(storeFile: string | undefined, runId: string | null, model: string | null): Map<string, TaskTokens> {
  const tokens = new Map<string, TaskTokens>();
  if (!storeFile || !runId || !existsSync(storeFile)) return tokens;
  const store = openStore(storeFile, { readonly: true });
  try {
    const byTrial = new Map<string, TaskTokens & { attempt: number }>();
    for (const episode of episodesForRun(store, runId, model ? { model } : {})) {
      if (episode.failureKind === 'infra' || episode.status === 'running') continue;
      const key = `${episode.taskId}\u0000${episode.trial}`;
      const previous = byTrial.get(key);
      if (previous && previous.attempt > episode.attempt) continue;
      const usage = { input: episode.usage.inputTokens, output: episode.usage.outputTokens };
      byTrial.set(key, { ...usage, total: usage.input + usage.output, attempt: episode.attempt });
    }
    const sums = new Map<string, TaskTokens & { trials: number }>();
    for (const [key, value] of byTrial) {
      const id = key.split('\u0000')[0] as string;
      const sum = sums.get(id) ?? { input: 0, output: 0, total: 0, trials: 0 };
      sums.set(id, { input: sum.input + value.input, output: sum.output + value.output, total: sum.total + value.total, trials: sum.trials + 1 });
    }
    for (const [id, sum] of sums) tokens.set(id, { input: sum.input / sum.trials, output: sum.output / sum.trials, total: sum.total / sum.trials });
  } finally {
    store.close();
  }
  return tokens;
}

export interface DomainTokens {
  tasks: number;
  meanTotalTokens: number;
}

/** Max-min normalised efficiency per domain: model -> domain -> value in [0, 1]. */
export function normaliseEfficiency(perModel: ReadonlyMap<string, ReadonlyMap<string, DomainTokens>>): Map<string, Map<string, number>> {
  const domains = new Set([...perModel.values()].flatMap((domainsOfModel) => [...domainsOfModel.keys()]));
  const result = new Map<string, Map<string, number>>([...perModel.keys()].map((model) => [model, new Map<string, number>()]));
  for (const domain of domains) {
    const values = [...perModel].flatMap(([model, byDomain]) => {
      const entry = byDomain.get(domain);
      return entry && entry.tasks > 0 && Number.isFinite(entry.meanTotalTokens) ? [[model, entry.meanTotalTokens] as const] : [];
    });
    if (values.length === 0) continue;
    const max = Math.max(...values.map(([, value]) => value));
    const min = Math.min(...values.map(([, value]) => value));
    for (const [model, value] of values) result.get(model)?.set(domain, max === min ? 1 : (max - value) / (max - min));
  }
  return result;
}
