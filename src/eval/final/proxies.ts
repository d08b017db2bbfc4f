// Deterministic stand-ins for the judges when none is configured: the prediction's final reply
// against the GT `final_reply`. They are proxies, written to their own file and never mixed
// into judge scores.
//
// - token F1: bag-of-tokens overlap (lower-cased runs of letters/digits), as in SQuAD.
// - ROUGE-L: F1 of the longest common token subsequence.
// - number recall: share of GT numbers found in the prediction, after normalising separators
//   and trailing zeros ("1,234.50" = "1234.5"); null when the GT has no numbers.
// - entity recall: share of GT entities found (case-insensitive substring) in the prediction.
//   An entity is a double-quoted string (straight or curly; single quotes are too often
//   apostrophes), or a run of capitalised words; a lone capitalised function
//   word ("The", "This", ...) is not one. Null when the GT has none.
// A task whose GT final reply is empty has no reference and scores null everywhere.
import { indexById } from '../../tasks/load.js';
import { noInfraFailures, type InfraFailures } from '../infra-failures.js';
import type { GtTask, Prediction } from '../../tasks/schemas.js';
import { gtTotals, proxyMetricNames, type FinalProxyOutput, type ProxyMetric, type ProxyTaskScores } from './output.js';
import { meanSkippingMissing } from './scores.js';
import { sum } from '../../core/number-format.js';

function tokenize(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** @internal Exported for its tests. */
export function tokenF1(prediction: string, reference: string): number {
  const predicted = tokenize(prediction);
  const expected = tokenize(reference);
  if (predicted.length === 0 || expected.length === 0) return predicted.length === expected.length ? 1 : 0;
  const counts = new Map<string, number>();
  for (const token of expected) counts.set(token, (counts.get(token) ?? 0) + 1);
  let overlap = 0;
  for (const token of predicted) {
    const left = counts.get(token) ?? 0;
    if (left > 0) {
      overlap += 1;
      counts.set(token, left - 1);
    }
  }
  if (overlap === 0) return 0;
  const precision = overlap / predicted.length;
  const recall = overlap / expected.length;
  return (2 * precision * recall) / (precision + recall);
}

/**
 * Length of the longest common subsequence. Exact shortcuts before the quadratic table: a common
 * prefix and suffix belong to some longest subsequence, and a token absent from the other side
 * can never be matched; the rest is counted on integer ids in two reused typed rows (replies of a
 * few hundred tokens made the row-per-token arrays of strings the hot spot of the proxies).
 */
function lcsLength(a: readonly string[], b: readonly string[]): number {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA -= 1;
    endB -= 1;
  }
  const shared = start + (a.length - endA);
  const inA = new Set(a.slice(start, endA));
  const ids = new Map<string, number>();
  const right: number[] = [];
  for (let j = start; j < endB; j += 1) {
    const token = b[j] as string;
    if (!inA.has(token)) continue;
    const id = ids.get(token) ?? ids.size;
    if (id === ids.size) ids.set(token, id);
    right.push(id);
  }
  if (right.length === 0) return shared;
  let previous = new Int32Array(right.length + 1);
  let current = new Int32Array(right.length + 1);
  for (let i = start; i < endA; i += 1) {
    const id = ids.get(a[i] as string);
    if (id === undefined) continue;
    for (let j = 1; j <= right.length; j += 1) {
      current[j] = id === right[j - 1] ? (previous[j - 1] as number) + 1 : Math.max(previous[j] as number, current[j - 1] as number);
    }
    [previous, current] = [current, previous];
  }
  return shared + (previous[right.length] as number);
}

/** @internal Exported for its tests. */
export function rougeL(prediction: string, reference: string): number {
  const predicted = tokenize(prediction);
  const expected = tokenize(reference);
  if (predicted.length === 0 || expected.length === 0) return predicted.length === expected.length ? 1 : 0;
  const lcs = lcsLength(predicted, expected);
  if (lcs === 0) return 0;
  const precision = lcs / predicted.length;
  const recall = lcs / expected.length;
  return (2 * precision * recall) / (precision + recall);
}

/**
 * Numbers as canonical strings: `1,234.50` → `1234.5`, `-3` → `-3`, `07` → `7`.
 * @internal Exported for its tests.
 */
export function extractNumbers(text: string): Set<string> {
  const found = new Set<string>();
  // A minus sign counts only at the start or after a space/bracket, so "2024-01" is 2024 and 1.
  const pattern = /(?:(?<=^|[\s([{:=])(-))?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)/g;
  for (const match of text.matchAll(pattern)) {
    const value = Number((match[2] ?? '').replace(/,/g, ''));
    if (Number.isFinite(value)) found.add(String(match[1] ? -value : value));
  }
  return found;
}

const functionWords = new Set([
  'the',
  'a',
  'an',
  'this',
  'that',
  'these',
  'those',
  'it',
  'its',
  'i',
  'we',
  'you',
  'he',
  'she',
  'they',
  'here',
  'there',
  'in',
  'on',
  'at',
  'for',
  'to',
  'of',
  'and',
  'or',
  'but',
  'if',
  'as',
  'by',
  'with',
  'from',
  'based',
  'yes',
  'no',
  'note',
  'total',
  'however',
  'also',
  'please',
]);

/** @internal Exported for its tests. */
export function extractEntities(text: string): Set<string> {
  const found = new Set<string>();
  for (const match of text.matchAll(/"([^"\n]{2,80})"|“([^”\n]{2,80})”/gu)) {
    const quoted = (match[1] ?? match[2] ?? '').trim();
    if (quoted) found.add(quoted.toLowerCase());
  }
  // A dot stays inside a word only before a letter ("U.S"), so "Paris. It" is two runs.
  const word = "\\p{Lu}(?:[\\p{L}\\p{N}'&-]|\\.(?=\\p{L}))*";
  for (const match of text.matchAll(new RegExp(`${word}(?:[ \\t]+${word})*`, 'gu'))) {
    const words = match[0].replace(/['-]+$/, '').split(/[ \t]+/);
    while (words.length > 0 && functionWords.has((words[0] ?? '').toLowerCase())) words.shift();
    const entity = words.join(' ');
    if (entity.length >= 2) found.add(entity.toLowerCase());
  }
  return found;
}

function recallOf(expected: ReadonlySet<string>, isFound: (item: string) => boolean): number | null {
  if (expected.size === 0) return null;
  let hits = 0;
  for (const item of expected) if (isFound(item)) hits += 1;
  return hits / expected.size;
}

/** @internal Exported for its tests. */
export function proxyScores(prediction: string, reference: string): ProxyTaskScores {
  if (reference.trim() === '') return { token_f1: null, rouge_l: null, number_recall: null, entity_recall: null };
  const predictedNumbers = extractNumbers(prediction);
  const haystack = prediction.toLowerCase().replace(/\s+/g, ' ');
  return {
    token_f1: tokenF1(prediction, reference),
    rouge_l: rougeL(prediction, reference),
    number_recall: recallOf(extractNumbers(reference), (item) => predictedNumbers.has(item)),
    entity_recall: recallOf(extractEntities(reference), (item) => haystack.includes(item.replace(/\s+/g, ' '))),
  };
}

/** Infrastructure failures (no prediction, recorded by the run) are listed and left out of the `_all` denominators. */
export function evaluateProxies(
  groundTruth: readonly GtTask[],
  predictions: readonly Prediction[],
  files?: { gt: string; predictions: string },
  infraFailures: InfraFailures = noInfraFailures,
  referenceCompat = false,
): FinalProxyOutput {
  const { byId: gtById } = indexById(groundTruth);
  const { byId: predictionById } = indexById(predictions);
  const perId: Record<string, ProxyTaskScores> = {};
  const missing: string[] = [];
  const infra: string[] = [];
  for (const [id, gt] of gtById) {
    const prediction = predictionById.get(id);
    if (prediction) perId[id] = proxyScores(prediction.final_reply, gt.final_reply);
    else (infraFailures.ids.has(id) ? infra : missing).push(id);
  }
  const counted = [...gtById.values()].filter((gt) => !infra.includes(gt.id));
  const metric = (name: ProxyMetric) => Object.values(perId).map((scores) => scores[name]);
  const aggregate = {
    ...gtTotals(groundTruth, referenceCompat),
    num_scored: Object.keys(perId).length,
    num_infra_failures: infra.length,
  } as FinalProxyOutput['aggregate'];
  for (const name of proxyMetricNames) {
    const values = metric(name);
    const mean = meanSkippingMissing(values);
    aggregate[name] = Number.isNaN(mean) ? null : mean;
    // Over all GT ids that have a reference: missing predictions count as 0.
    const withReference = counted.filter(
      (gt) =>
        gt.final_reply.trim() !== '' &&
        (name !== 'number_recall' || extractNumbers(gt.final_reply).size > 0) &&
        (name !== 'entity_recall' || extractEntities(gt.final_reply).size > 0),
    ).length;
    aggregate[`${name}_all`] = withReference === 0 ? null : sum(values, (value) => value ?? 0) / withReference;
  }
  return {
    kind: 'proxy',
    note: 'Deterministic proxies against the GT final_reply (token F1, ROUGE-L, number and entity recall). They are not judge scores and must not be compared with completion_rate.',
    aggregate,
    per_id: perId,
    missing_predictions: missing,
    infra_failures: infra,
    meta: { gt: files?.gt ?? '', predictions: files?.predictions ?? '', generated_at: new Date().toISOString() },
  };
}
