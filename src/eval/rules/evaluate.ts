// Evaluates one MCP-Universe-style rule, op(func(target), value, op_args), on a finished task:
// the target is the final answer (default) or one predicted tool result. Every problem (a func
// that does not parse, an unknown function or operator, a missing key, an answer that is not
// JSON, a missing call) is a failed check with its reason; nothing here throws on bad input.
//
// Functions and operators come from a RuleRegistry: the built-ins (functions.ts, operators.ts)
// plus any registered by the caller:
//   const rules = new RuleRegistry().registerFunction('words', (v) => String(v).split(/\s+/));
import type { Evaluator, RuleTarget } from '../../tasks/task-checks.js';
import { builtinFunctions, describeValue, RuleFailure, type RuleFunction } from './functions.js';
import { builtinOperators, type RuleOperator } from './operators.js';
import { parsePipeline, RuleSyntaxError, type PipelineStep } from './pipeline.js';
import { PythonTypeError } from './python-values.js';

const namePattern = /^[A-Za-z_][\w.-]*$/;

export class RuleRegistry {
  private readonly functions = builtinFunctions();
  private readonly operators = builtinOperators();

  registerFunction(name: string, fn: RuleFunction): this {
    if (!namePattern.test(name) || name === 'foreach' || name === 'raw')
      throw new RangeError(`rule function name ${JSON.stringify(name)} must match ${namePattern} and not be "foreach" or "raw"`);
    this.functions.set(name, fn);
    return this;
  }

  registerOperator(name: string, fn: RuleOperator): this {
    if (name.trim() === '' || /\s/.test(name)) throw new RangeError(`rule operator name ${JSON.stringify(name)} must be non-empty without spaces`);
    this.operators.set(name, fn);
    return this;
  }

  functionNamed(name: string): RuleFunction | undefined {
    return this.functions.get(name);
  }

  operatorNamed(name: string): RuleOperator | undefined {
    return this.operators.get(name);
  }
}

/** A predicted call as rules see it: canonical tool name and the recorded result text. */
interface RuleCall {
  tool: string;
  result: string | undefined;
}

export interface RuleSubject {
  answer: string;
  /** Predicted calls, flattened step by step. */
  calls: readonly RuleCall[];
}

export interface CheckResult {
  /** The rule as written: target, func, op and value. */
  evaluator: string;
  passed: boolean;
  reason: string;
  /** What the func produced (omitted when it failed). */
  actual?: unknown;
}

/** What `foreach` produced: the rest of the pipeline ran on each item (items may nest). */
class EachResult {
  constructor(readonly items: readonly unknown[]) {}
}

/** What `raw` produced: MCP-Universe wraps the value again, so only an operator may read it. */
class RawResult {
  constructor(readonly value: unknown) {}
}

function runStep(step: PipelineStep, value: unknown, registry: RuleRegistry): unknown {
  const fn = registry.functionNamed(step.name);
  if (!fn) throw new RuleFailure(`unknown function "${step.name}"`);
  try {
    return fn(value, step.args);
  } catch (error) {
    if (error instanceof RuleFailure) throw error;
    throw new RuleFailure(`${step.text} failed: ${(error as Error).message}`);
  }
}

/**
 * Applies the steps in order, as MCP-Universe's Evaluator.execute does: `foreach` turns a list
 * into its items and every later step runs on each item; `raw` must be the last step.
 * @internal Exported for its tests.
 */
export function runPipeline(steps: readonly PipelineStep[], value: unknown, registry: RuleRegistry): unknown {
  const [step, ...rest] = steps;
  if (!step) return value;
  if (value instanceof EachResult) {
    return new EachResult(
      value.items.map((item, index) => {
        try {
          return runPipeline(steps, item, registry);
        } catch (error) {
          if (error instanceof RuleFailure) throw new RuleFailure(`foreach item ${index}: ${error.message}`);
          throw error;
        }
      }),
    );
  }
  if (value instanceof RawResult) throw new RuleFailure(`${step.text} cannot follow raw (MCP-Universe wraps raw's result, so only an operator reads it)`);
  if (step.name === 'foreach') {
    if (!Array.isArray(value)) throw new RuleFailure(`foreach needs a list, got ${describeValue(value)}`);
    return runPipeline(rest, new EachResult(value), registry);
  }
  if (step.name === 'raw') return runPipeline(rest, new RawResult(value), registry);
  return runPipeline(rest, runStep(step, value, registry), registry);
}

/**
 * The values the operator tests: one, or every item `foreach` produced (flattened, in order).
 * @internal Exported for its tests.
 */
export function pipelineResults(value: unknown): unknown[] {
  if (value instanceof EachResult) return value.items.flatMap(pipelineResults);
  if (value instanceof RawResult) return [value.value];
  return [value];
}

function describeTarget(target: RuleTarget): string {
  if (target === 'answer') return 'answer';
  if ('call' in target) return `call[${target.call}]`;
  return `${target.tool}[${target.occurrence ?? -1}]`;
}

function describeEvaluator(evaluator: Evaluator): string {
  const value = evaluator.value === undefined ? '' : ` ${describeValue(evaluator.value, 80)}`;
  return `${describeTarget(evaluator.target)}: ${evaluator.func.trim() || '(raw)'} ${evaluator.op}${value}`;
}

/** The text a rule reads, or a reason why there is none. */
function targetText(target: RuleTarget, subject: RuleSubject): string {
  if (target === 'answer') return subject.answer;
  const pick = (calls: readonly RuleCall[], index: number, what: string): RuleCall => {
    const call = calls[index < 0 ? calls.length + index : index];
    if (!call) throw new RuleFailure(`no ${what} (the prediction has ${calls.length})`);
    return call;
  };
  const call =
    'call' in target
      ? pick(subject.calls, target.call, `predicted call ${target.call}`)
      : pick(
          subject.calls.filter((entry) => entry.tool === target.tool),
          target.occurrence ?? -1,
          `call ${target.occurrence ?? -1} of ${target.tool}`,
        );
  if (call.result === undefined) throw new RuleFailure(`${call.tool}: the prediction recorded no result`);
  return call.result;
}

function applyOperator(operator: RuleOperator, evaluator: Evaluator, actual: unknown): boolean {
  try {
    return operator(actual, evaluator.value ?? null, evaluator.op_args ?? null);
  } catch (error) {
    if (error instanceof RuleFailure) throw error;
    throw new RuleFailure(`operator ${evaluator.op || '(none)'} failed: ${(error as Error).message}`);
  }
}

/**
 * Runs one rule as MCP-Universe's Evaluator.evaluate does: the operator tests every result the
 * func produced (one, or each item after `foreach`, where no items pass); the first that fails
 * decides; an empty op passes.
 */
export function evaluateRule(evaluator: Evaluator, subject: RuleSubject, registry: RuleRegistry): CheckResult {
  const label = describeEvaluator(evaluator);
  try {
    const operator = registry.operatorNamed(evaluator.op);
    if (!operator) throw new RuleFailure(`unknown operator "${evaluator.op}"`);
    const produced = runPipeline(parsePipeline(evaluator.func), targetText(evaluator.target, subject), registry);
    const results = pipelineResults(produced);
    const each = produced instanceof EachResult;
    const actual = each ? results : results[0];
    const op = evaluator.op || '(no op)';
    for (const [index, result] of results.entries()) {
      if (!applyOperator(operator, evaluator, result)) {
        const item = each ? `item ${index} ` : '';
        return { evaluator: label, passed: false, reason: `${item}${describeValue(result)} not ${op} ${describeValue(evaluator.value ?? null)}`, actual };
      }
    }
    const reason = each
      ? `each of ${results.length} results ${op} ${describeValue(evaluator.value ?? null)}${results.length === 0 ? ' (no results: passes, as in MCP-Universe)' : ''}`
      : `${describeValue(actual)} ${op} ${describeValue(evaluator.value ?? null)}`;
    return { evaluator: label, passed: true, reason, actual };
  } catch (error) {
    if (error instanceof RuleFailure || error instanceof RuleSyntaxError) return { evaluator: label, passed: false, reason: error.message };
    if (error instanceof PythonTypeError) return { evaluator: label, passed: false, reason: `operator ${evaluator.op}: ${error.message}` };
    throw error;
  }
}
