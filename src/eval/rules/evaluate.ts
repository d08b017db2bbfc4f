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

const namePattern = /^[A-Za-z_][\w.-]*$/;

export class RuleRegistry {
  private readonly functions = builtinFunctions();
  private readonly operators = builtinOperators();

  registerFunction(name: string, fn: RuleFunction): this {
    if (!namePattern.test(name) || name === 'foreach')
      throw new RangeError(`rule function name ${JSON.stringify(name)} must match ${namePattern} and not be "foreach"`);
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

/** Applies the steps in order; `foreach` maps the remaining steps over a list. */
export function runPipeline(steps: readonly PipelineStep[], value: unknown, registry: RuleRegistry): unknown {
  const [step, ...rest] = steps;
  if (!step) return value;
  if (step.name === 'foreach') {
    if (step.args.length > 0) throw new RuleFailure('foreach takes no arguments');
    if (!Array.isArray(value)) throw new RuleFailure(`foreach needs a list, got ${describeValue(value)}`);
    return value.map((item, index) => {
      try {
        return runPipeline(rest, item, registry);
      } catch (error) {
        if (error instanceof RuleFailure) throw new RuleFailure(`foreach item ${index}: ${error.message}`);
        throw error;
      }
    });
  }
  const fn = registry.functionNamed(step.name);
  if (!fn) throw new RuleFailure(`unknown function "${step.name}"`);
  let next: unknown;
  try {
    next = fn(value, step.args);
  } catch (error) {
    if (error instanceof RuleFailure) throw error;
    throw new RuleFailure(`${step.text} failed: ${(error as Error).message}`);
  }
  return runPipeline(rest, next, registry);
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

export function evaluateRule(evaluator: Evaluator, subject: RuleSubject, registry: RuleRegistry): CheckResult {
  const label = describeEvaluator(evaluator);
  try {
    const operator = registry.operatorNamed(evaluator.op);
    if (!operator) throw new RuleFailure(`unknown operator "${evaluator.op}"`);
    const steps = parsePipeline(evaluator.func);
    const actual = runPipeline(steps, targetText(evaluator.target, subject), registry);
    let passed: boolean;
    try {
      passed = operator(actual, evaluator.value, evaluator.op_args);
    } catch (error) {
      if (error instanceof RuleFailure) throw error;
      throw new RuleFailure(`operator ${evaluator.op} failed: ${(error as Error).message}`);
    }
    const reason = `${describeValue(actual)} ${passed ? '' : 'not '}${evaluator.op} ${describeValue(evaluator.value)}`;
    return { evaluator: label, passed, reason, actual };
  } catch (error) {
    if (error instanceof RuleFailure || error instanceof RuleSyntaxError) return { evaluator: label, passed: false, reason: error.message };
    throw error;
  }
}
