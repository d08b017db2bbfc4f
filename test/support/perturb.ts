// Seeded perturbations of trajectories, for testing that each metric moves the way its
// definition implies and for the evaluation benchmark. Every perturbation takes a strength in
// [0, 1]: each unit (call, step or task) draws a fixed pseudo-random number from (seed, kind,
// task id, position) and is perturbed when that number is below the strength. The perturbed
// sets are therefore nested: strength 0.5 perturbs everything 0.25 did, and more.
import { isLosslessNumber } from 'lossless-json';
import { serializeArguments } from '../../src/eval/step/serialize.js';
import type { Trajectory, TrajectoryCall } from '../../src/eval/step/trajectory.js';

export const perturbationKinds = [
  'drop-calls',
  'duplicate-calls',
  'rename-tools',
  'corrupt-arguments',
  'split-steps',
  'merge-steps',
  'reverse-steps',
  'drop-tasks',
] as const;
export type PerturbationKind = (typeof perturbationKinds)[number];

/** A uniform number in [0, 1) that depends only on its inputs (FNV-1a + murmur finaliser). */
export function unitDraw(...parts: Array<string | number>): number {
  let hash = 0x811c9dc5;
  for (const char of parts.join('\u0001')) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return (hash >>> 0) / 2 ** 32;
}

function stepsOf(trajectory: Trajectory): TrajectoryCall[][] {
  const steps = Array.from({ length: trajectory.stepCount }, () => [] as TrajectoryCall[]);
  for (const call of trajectory.calls) steps[call.stepIndex]?.push(call);
  return steps;
}

/** Rebuilds a trajectory from step lists (indices renumbered; empty steps kept only if asked). */
export function fromSteps(base: Trajectory, steps: TrajectoryCall[][], keepEmptySteps = false): Trajectory {
  const kept = keepEmptySteps ? steps : steps.filter((step) => step.length > 0);
  const calls = kept.flatMap((step, stepIndex) => step.map((call, callIndexInStep) => ({ ...call, stepIndex, callIndexInStep })));
  return { ...base, stepCount: kept.length, calls };
}

function withArguments(call: TrajectoryCall, value: unknown): TrajectoryCall {
  return { ...call, arguments: value, text: serializeArguments(value) };
}

const syllables = ['ka', 'zu', 'mo', 'rel', 'vin', 'tox', 'qua', 'pli', 'den', 'sor', 'bex', 'ul'];

function gibberish(length: number, ...key: Array<string | number>): string {
  let text = '';
  for (let index = 0; text.length < Math.max(3, length); index += 1) {
    text += syllables[Math.floor(unitDraw(...key, index) * syllables.length)] ?? 'x';
    if (unitDraw(...key, index, 'space') < 0.2) text += ' ';
  }
  return text.trim();
}

/** Replaces every leaf value by an unrelated one of the same JSON type; keys stay. */
export function corruptValue(value: unknown, ...key: Array<string | number>): unknown {
  if (typeof value === 'string') return gibberish(value.length, ...key);
  if (typeof value === 'number' || isLosslessNumber(value)) return Math.round(unitDraw(...key, 'n') * 90_000) + 1000;
  if (typeof value === 'boolean') return !value;
  if (Array.isArray(value)) return value.map((item, index) => corruptValue(item, ...key, index));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([name, item]) => [name, corruptValue(item, ...key, name)]));
  }
  return gibberish(8, ...key, 'null');
}

function perturbTask(trajectory: Trajectory, kind: PerturbationKind, strength: number, seed: number): Trajectory | undefined {
  const id = trajectory.id;
  const hit = (...position: Array<string | number>) => unitDraw(seed, kind, id, ...position) < strength;
  const steps = stepsOf(trajectory);
  switch (kind) {
    case 'drop-calls':
      return fromSteps(
        trajectory,
        steps.map((step, s) => step.filter((_, c) => !hit(s, c))),
      );
    case 'duplicate-calls':
      return fromSteps(
        trajectory,
        steps.map((step, s) => step.flatMap((call, c) => (hit(s, c) ? [call, { ...call }] : [call]))),
        true,
      );
    case 'rename-tools':
      return fromSteps(
        trajectory,
        steps.map((step, s) => step.map((call, c) => (hit(s, c) ? { ...call, tool: `renamed/${call.tool.replace(/^.*\//, '')}` } : call))),
        true,
      );
    case 'corrupt-arguments':
      return fromSteps(
        trajectory,
        steps.map((step, s) => step.map((call, c) => (hit(s, c) ? withArguments(call, corruptValue(call.arguments, seed, id, s, c)) : call))),
        true,
      );
    case 'split-steps':
      return fromSteps(
        trajectory,
        steps.flatMap((step, s) => (step.length >= 2 && hit(s) ? [step.slice(0, Math.ceil(step.length / 2)), step.slice(Math.ceil(step.length / 2))] : [step])),
        true,
      );
    case 'merge-steps':
      return hit() ? fromSteps(trajectory, [steps.flat()]) : trajectory;
    case 'reverse-steps':
      return hit() ? fromSteps(trajectory, [...steps].reverse(), true) : trajectory;
    case 'drop-tasks':
      return hit() ? undefined : trajectory;
  }
}

/** Applies one perturbation to every trajectory; `drop-tasks` removes ids from the map. */
export function perturb(trajectories: ReadonlyMap<string, Trajectory>, kind: PerturbationKind, strength: number, seed = 1): Map<string, Trajectory> {
  if (!(strength >= 0 && strength <= 1)) throw new RangeError(`perturbation strength must be in [0, 1], got ${strength}`);
  const result = new Map<string, Trajectory>();
  for (const [id, trajectory] of trajectories) {
    const perturbed = perturbTask(trajectory, kind, strength, seed);
    if (perturbed) result.set(id, perturbed);
  }
  return result;
}

/** Prediction-file records (reference shape) for perturbed trajectories. */
export function toPredictionRecords(trajectories: ReadonlyMap<string, Trajectory>): Array<Record<string, unknown>> {
  return [...trajectories.values()].map((trajectory) => {
    const steps = stepsOf(trajectory).map((calls, index) => ({
      step: index + 1,
      calls: calls.map((call) => ({ name: call.tool, arguments: call.arguments === undefined ? null : call.arguments, result: call.result ?? '' })),
    }));
    return {
      id: trajectory.id,
      type: trajectory.type,
      steps,
      num_step: steps.length,
      max_num_concurrent: Math.max(0, ...steps.map((step) => step.calls.length)),
      final_reply: '',
    };
  });
}

/**
 * The same seeded, nested scheme for free text (final replies): every whitespace-separated word
 * whose draw from (seed, key, position) is below the strength is replaced by an unrelated word,
 * so a larger strength replaces a superset of the words a smaller one did.
 */
export function perturbText(text: string, strength: number, seed: number, key: string): string {
  if (!(strength >= 0 && strength <= 1)) throw new RangeError(`perturbation strength must be in [0, 1], got ${strength}`);
  let position = 0;
  return text.replace(/\S+/g, (word) => {
    position += 1;
    return unitDraw(seed, 'text', key, position) < strength ? gibberish(Math.max(3, Math.min(word.length, 8)), seed, key, position).replace(/\s+/g, '') : word;
  });
}
