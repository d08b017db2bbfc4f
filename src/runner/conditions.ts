// Named conditions: controlled changes of the run setup, so one batch can hold paired cells
// (the same tasks under two setups). `--condition a+b` combines conditions; `baseline` is the
// unchanged setup. A cell's files carry the condition in their label (`<model>+images-off`).
import { ConfigError } from '../errors/index.js';
import { maxStepProblem, type LoopLimits } from '../agent/options.js';
import type { ModelDriver } from '../llm/types.js';
import type { GtTask } from '../tasks/schemas.js';
import { withImagesWithheld } from './driver-decorators.js';
import type { ToolHost } from '../mcp/types.js';
import { parseRobustnessCondition, robustnessConditionHelp, type TaskHostScope } from '../robustness/condition-spec.js';

export interface Condition {
  name: string;
  description: string;
  limits?: (limits: LoopLimits) => LoopLimits;
  /** Text appended to a task's first user turn; the recorded question stays the task's own. */
  hint?: (gt: GtTask | undefined) => string | undefined;
  driver?: (driver: ModelDriver) => ModelDriver;
  /** Wraps the tool host one task sees (the robustness conditions of src/robustness/). */
  taskHost?: (host: ToolHost, scope: TaskHostScope) => ToolHost;
}

export const baselineCondition = 'baseline';

/** How many calls and distinct tools the ground truth uses (RADAR's tool-count hint). */
function toolCountHint(gt: GtTask | undefined): string | undefined {
  if (!gt) return undefined;
  const calls = gt.steps.flatMap((step) => step.calls);
  const tools = new Set(calls.map((call) => String(call.name ?? '').trim()).filter(Boolean));
  if (calls.length === 0) return undefined;
  return `[hint] This task can be solved with ${calls.length} tool call(s) using ${tools.size} distinct tool(s).`;
}

const registry = new Map<string, Condition>(
  [
    { name: baselineCondition, description: 'the unchanged setup' },
    {
      name: 'images-off',
      description:
        'every task image and every tool-produced image the model would see is replaced by a flat grey placeholder of the same pixel size (tools still read the real files)',
      driver: (driver: ModelDriver) => withImagesWithheld(driver, 'placeholder'),
    },
    {
      name: 'images-dropped',
      description: 'every image the model would see is removed and replaced by a one-line text note naming its size',
      driver: (driver: ModelDriver) => withImagesWithheld(driver, 'drop'),
    },
    {
      name: 'top-tools-6',
      description: 'only the 6 best-ranked tools are offered per task (--top-tools 6)',
      limits: (limits: LoopLimits) => ({ ...limits, topTools: 6 }),
    },
    { name: 'tool-count-hint', description: 'the first user turn says how many tool calls and distinct tools the ground truth uses', hint: toolCountHint },
  ].map((condition) => [condition.name, condition]),
);

export function knownConditions(): Condition[] {
  return [...registry.values()];
}

export interface ConditionSet {
  /** `baseline`, or the parts joined with `+` in the order given. */
  name: string;
  parts: Condition[];
}

/** `images-off`, `images-off+top-tools-6`, `baseline`; unknown names are refused with the list. */
export function parseCondition(text: string): ConditionSet {
  const names = text
    .split('+')
    .map((part) => part.trim())
    .filter(Boolean);
  if (names.length === 0) throw new ConfigError(`--condition "${text}": expected a condition name (known: ${[...registry.keys()].join(', ')})`);
  const parts: Condition[] = [];
  for (const given of names) {
    // `none` is the name MCP-RADAR's sweep uses for the task as written.
    const name = given === 'none' ? baselineCondition : given;
    const condition = registry.get(name) ?? parseRobustnessCondition(given);
    if (!condition)
      throw new ConfigError(
        `--condition "${text}": unknown condition "${given}" (known: ${[...registry.keys()].join(', ')}; with a value: ${robustnessConditionHelp})`,
      );
    if (parts.some((part) => part.name.split('=')[0] === condition.name.split('=')[0] && condition.name.includes('=')))
      throw new ConfigError(`--condition "${text}": ${condition.name.split('=')[0]} is given twice`);
    if (name !== baselineCondition && !parts.some((part) => part.name === condition.name)) parts.push(condition);
  }
  return { name: parts.length === 0 ? baselineCondition : parts.map((part) => part.name).join('+'), parts };
}

/** The file label of a model under a condition: `<model>` for the baseline, else `<model>+<condition>`. */
export function cellLabel(modelLabel: string, condition: ConditionSet): string {
  return condition.parts.length === 0 ? modelLabel : `${modelLabel}+${condition.name}`;
}

/** The label of one trial's files: the cell label, with `.trial-<t>` when a batch runs several trials. */
export function trialLabel(cell: string, trial: number, trials: number): string {
  return trials > 1 ? `${cell}.trial-${trial}` : cell;
}

export function applyLimits(condition: ConditionSet, limits: LoopLimits): LoopLimits {
  return condition.parts.reduce((current, part) => part.limits?.(current) ?? current, limits);
}

export function applyDriver(condition: ConditionSet, driver: ModelDriver): ModelDriver {
  return condition.parts.reduce((current, part) => part.driver?.(current) ?? current, driver);
}

/** The tool host one task sees under the condition (the run's host when no part changes it). */
export function applyTaskHost(condition: ConditionSet, host: ToolHost, scope: TaskHostScope): ToolHost {
  return condition.parts.reduce((current, part) => part.taskHost?.(current, scope) ?? current, host);
}

/** The hints the condition adds to one task's first user turn (empty: none). */
export function hintsFor(condition: ConditionSet, gt: GtTask | undefined): string[] {
  return condition.parts.map((part) => part.hint?.(gt)).filter((hint): hint is string => Boolean(hint));
}
/** `--max-step 6` or `--max-step 2,4,6`: distinct whole numbers >= 0, in the order given. */
export function parseMaxSteps(text: string): number[] {
  const values = text.split(',').map((part) => part.trim());
  if (values.some((value) => !/^\d+$/.test(value)))
    throw new ConfigError(`--max-step "${text}": expected a whole number, or a comma-separated list of them (e.g. 2,4,6)`);
  const steps = [...new Set(values.map(Number))];
  for (const step of steps) {
    const problem = maxStepProblem(step);
    if (problem) throw new ConfigError(`--max-step "${text}": ${problem}`);
  }
  return steps;
}
