// The robustness conditions as `--condition` parts: `distractors=N[:kind]`, `faults=p[:kind...]`,
// `inject=<suite>`. Each becomes a wrapper of the tool host one task sees, seeded by the run seed
// and the task id. Their names are file-name safe (they end up in cell labels): `:` becomes `_`.
import { ConfigError } from '../errors/index.js';
import type { ToolHost } from '../mcp/types.js';
import type { GtTask } from '../tasks/schemas.js';
import { distractorKinds, plantDistractors, withDistractors, type DistractorKind } from './distractors.js';
import { faultAliases, faultKinds, withInjectedFaults, type FaultKind } from './faults.js';
import { injectionSuites, suiteNamed } from './injection-suite.js';
import { withInjections } from './injections.js';

export interface TaskHostScope {
  taskId: string;
  gt: GtTask | undefined;
  /** The run seed (0 when the run has none): the same seed plants the same changes. */
  seed: number;
}

export interface RobustnessCondition {
  name: string;
  description: string;
  taskHost: (host: ToolHost, scope: TaskHostScope) => ToolHost;
}

export const robustnessConditionHelp = `distractors=N[:mixed|lookalike|unrelated], faults=p[:timeout:429:500:reset], inject=<suite> (suites: ${injectionSuites.join(', ')})`;

function parseDistractors(text: string, value: string, options: string[]): RobustnessCondition {
  const count = Number(value);
  if (!/^\d+$/.test(value) || count < 1 || count > 200) throw new ConfigError(`--condition "${text}": distractors=N expects a whole number from 1 to 200`);
  const kind = (options[0] ?? 'mixed') as DistractorKind;
  if (!distractorKinds.includes(kind) || options.length > 1)
    throw new ConfigError(`--condition "${text}": distractor kind must be one of ${distractorKinds.join(', ')}`);
  return {
    name: kind === 'mixed' ? `distractors=${count}` : `distractors=${count}_${kind}`,
    description: `${count} planted distractor tool(s) per task (${kind}: look-alikes of the task's GT tools and/or copies of other servers' tools); calls to them answer empty or "no longer available"`,
    taskHost: (host, scope) =>
      withDistractors(host, plantDistractors(host.tools, scope.gt, { count, kind }, scope.seed, scope.taskId), scope.seed, scope.taskId),
  };
}

function parseFaults(text: string, value: string, options: string[]): RobustnessCondition {
  const probability = Number(value);
  if (value === '' || !Number.isFinite(probability) || probability <= 0 || probability > 1)
    throw new ConfigError(`--condition "${text}": faults=p expects a probability in (0, 1], e.g. faults=0.1`);
  const kinds: FaultKind[] = [];
  for (const option of options) {
    const kind = faultAliases[option];
    if (!kind) throw new ConfigError(`--condition "${text}": unknown fault kind "${option}" (known: ${Object.keys(faultAliases).join(', ')})`);
    if (!kinds.includes(kind)) kinds.push(kind);
  }
  const chosen = kinds.length > 0 ? kinds : [...faultKinds];
  return {
    name: kinds.length > 0 ? `faults=${value}_${kinds.join('_')}` : `faults=${value}`,
    description: `each tool call fails with probability ${value} before reaching its server (${chosen.join(', ')}), as an ordinary error the model may retry`,
    taskHost: (host, scope) => withInjectedFaults(host, { probability, kinds: chosen }, scope),
  };
}

function parseInject(text: string, value: string, options: string[]): RobustnessCondition {
  if (!suiteNamed(value) || options.length > 0)
    throw new ConfigError(`--condition "${text}": inject=<suite> expects one of the suites ${injectionSuites.join(', ')}`);
  return {
    name: `inject=${value}`,
    description: `every successful text or image tool result carries a planted instruction with a canary (suite ${value})`,
    taskHost: (host, scope) => withInjections(host, { suite: value }, scope.gt, scope.seed, scope.taskId),
  };
}

/** A `name=value[:option...]` part of `--condition`, or undefined when it names no robustness condition. */
export function parseRobustnessCondition(text: string): RobustnessCondition | undefined {
  const match = /^(distractors|faults|inject)=([^:]*)((?::[^:]+)*)$/.exec(text.trim());
  if (!match) {
    if (/^(distractors|faults|inject)\b/.test(text.trim())) throw new ConfigError(`--condition "${text}": expected ${robustnessConditionHelp}`);
    return undefined;
  }
  const [, name, value = '', rest = ''] = match;
  const options = rest.split(':').filter(Boolean);
  if (name === 'distractors') return parseDistractors(text, value, options);
  if (name === 'faults') return parseFaults(text, value, options);
  return parseInject(text, value, options);
}
