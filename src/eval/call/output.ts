// The shape of `results/<model>/callanalysis.json`: the five reference counters at top level
// so old readers keep working, plus clearly separate extras: units, per-call labels
// with their source, and unclassified calls (bugs 34-36).
import path from 'node:path';
import { z } from 'zod';
import { formatIssues } from '../../config/zod-issues.js';
import { EvaluationError } from '../../errors/index.js';
import { loadJsonFile } from '../../tasks/load-json.js';
import type { JudgeAttempt } from './judge.js';
import type { CallCategory } from './rules.js';

/** `mocked`: the tool fallback layer served the call (src/results/mocked-share.ts); counted apart from the categories. */
/** `distractor` and `injected_fault`: calls a robustness condition answered (src/robustness/), counted apart. */
type CallLabel = CallCategory | 'unclassified' | 'mocked' | 'distractor' | 'injected_fault';

export interface CallLabelRecord {
  id: string;
  /** 1-based step number as recorded in the prediction (array position + 1 if absent). */
  step: number;
  /** 0-based position of the call inside its step. */
  index: number;
  name: string | null;
  label: CallLabel;
  /** `rule`: decided by a rule; `judge`: by the LLM judge; `fallback`: undecided, no judge configured. */
  source: 'rule' | 'judge' | 'fallback' | 'none';
  rule?: string;
  detail?: string;
  /** Why a call is unclassified: an infrastructure failure, or a judge that gave no usable answer. */
  reason?: 'infrastructure' | 'judge_failed';
  judge?: { model: string; votes: number[]; attempts: JudgeAttempt[]; failure?: string };
}

export interface CallAnalysis {
  illegal_calling: number;
  unknown_tool: number;
  invalid_arguments: number;
  resource_not_found: number;
  success: number;
  /** Calls whose return the tool fallback layer mocked: not a success, not in the categories above. */
  mocked: number;
  /** Calls to a planted distractor tool (--condition distractors=N): never a success. */
  distractor: number;
  /** Calls that failed by an injected fault (--condition faults=p): neither the model's error nor the run's. */
  injected_fault: number;
  units: {
    illegal_calling: 'tasks';
    unknown_tool: 'calls';
    invalid_arguments: 'calls';
    resource_not_found: 'calls';
    success: 'calls';
    mocked: 'calls';
    distractor: 'calls';
    injected_fault: 'calls';
    unclassified: 'calls';
  };
  totals: { tasks: number; calls: number };
  unclassified: number;
  unclassified_reasons: { infrastructure: number; judge_failed: number };
  illegal_calling_ids: string[];
  per_call: CallLabelRecord[];
  meta: { predictions: string; catalog: string | null; judge: string | null; generated_at: string };
}

const count = z.number().int().nonnegative();

/** What readers (the report) need; everything beyond the five counters is optional. */
const callAnalysisFileSchema = z
  .object({
    illegal_calling: count,
    unknown_tool: count,
    invalid_arguments: count,
    resource_not_found: count,
    success: count,
    unclassified: count.optional(),
    totals: z.object({ tasks: count, calls: count }).optional(),
  })
  .loose();

export type CallAnalysisFile = z.output<typeof callAnalysisFileSchema>;

export function loadCallAnalysis(file: string): CallAnalysisFile {
  const parsed = callAnalysisFileSchema.safeParse(loadJsonFile(file));
  if (!parsed.success) throw new EvaluationError(formatIssues(file, parsed.error.issues));
  return parsed.data;
}

/**
 * The model name of a prediction file: `results/gpt-5_test_mcp_fuzzy.json` → `gpt-5`
 * (the reference naming), any other `name.json` → `name`.
 */
function modelNameFromPredictionFile(predFile: string): string {
  const base = path.basename(predFile);
  return base.endsWith('_test_mcp_fuzzy.json') ? base.slice(0, -'_test_mcp_fuzzy.json'.length) : base.replace(/\.json$/i, '');
}

/** `results/<model>/<fileName>` beside the prediction file. */
export function defaultOutputFile(predFile: string, fileName: string): string {
  return path.join(path.dirname(predFile), modelNameFromPredictionFile(predFile), fileName);
}
