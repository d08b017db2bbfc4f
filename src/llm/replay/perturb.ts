// The seeded "noisy oracle": ground truth with controlled damage (dropped calls, argument noise,
// wrong tools, merged steps), so reports can show the metrics discriminating. Clearly synthetic.
import { serverOf } from '../../core/canonical-name.js';
import type { ReplayCall, ReplayPlan } from './plan.js';
import { damageReply } from './reply-damage.js';
import { createRandom } from '../../core/seeded-random.js';

export interface PerturbOptions {
  seed: number;
  /** Probability of dropping each call. */
  drop: number;
  /** Probability of corrupting each call's argument values. */
  noise: number;
  /** Probability of replacing a call's tool with another tool of the catalog. */
  wrong: number;
  /** Merge all steps into one (destroys step structure). */
  merge: boolean;
}

function hashText(text: string): number {
  let hash = 2166136261;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return hash >>> 0;
}

function corrupt(value: unknown, random: () => number): unknown {
  if (typeof value === 'number') return Math.round(value * (1.5 + random()) + 7);
  if (typeof value === 'string') {
    // Paths keep their folder and extension, so a corrupted output path still lands in the task's
    // (git-ignored) output folder instead of scattering files through media/.
    const path = /^(.*\/)([^/]*?)(\.[A-Za-z0-9]{1,5})?$/.exec(value);
    if (path && value.includes('/')) return `${path[1]}${path[2]}_x${Math.floor(random() * 1000)}${path[3] ?? ''}`;
    return `${value.split('').reverse().join('')}_x${Math.floor(random() * 1000)}`;
  }
  if (typeof value === 'boolean') return !value;
  if (Array.isArray(value)) return value.map((item) => corrupt(item, random));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, corrupt(inner, random)]));
  }
  return value;
}

type Damage = 'intact' | 'dropped' | 'altered';

interface DrawnCall {
  call: ReplayCall;
  damage: Damage;
}

/**
 * Each call draws from its own stream (seeded by task, step and position), and always in the same
 * order (drop, noise, wrong, then the values), so the damage is nested: a call damaged at some
 * rates stays damaged, the same way, at every higher rate.
 */
function drawCall(call: ReplayCall, key: string, options: PerturbOptions, candidates: readonly string[]): DrawnCall {
  const random = createRandom(options.seed ^ hashText(key));
  const [dropDraw, noiseDraw, wrongDraw, pickDraw] = [random(), random(), random(), random()];
  if (dropDraw < options.drop) return { call, damage: 'dropped' };
  const { replyFacts: _facts, ...plain } = call;
  let next: ReplayCall = plain;
  let damage: Damage = 'intact';
  if (noiseDraw < options.noise) {
    const corrupted = corrupt(call.arguments, random);
    if (JSON.stringify(corrupted) !== JSON.stringify(call.arguments)) {
      next = { name: call.name, arguments: corrupted };
      damage = 'altered';
    }
  }
  const others = candidates.filter((name) => name !== call.name);
  if (wrongDraw < options.wrong && others.length > 0) {
    next = { ...next, name: others[Math.floor(pickDraw * others.length)] ?? call.name };
    damage = 'altered';
  }
  return { call: next, damage };
}

export function perturbPlan(plan: ReplayPlan, taskId: string, options: PerturbOptions, toolNames: readonly string[]): ReplayPlan {
  // A wrong tool is drawn from the servers the task's own trajectory uses: a plausible mistake,
  // and one that stays on servers the task needs anyway (a web server drawn from the whole
  // catalog would make the offline embedded default call the network).
  const planServers = new Set(plan.steps.flat().map((call) => serverOf(call.name)));
  const nearby = toolNames.filter((name) => planServers.has(serverOf(name)));
  const candidates = nearby.length > 1 ? nearby : toolNames;
  // Seeded per task (and call) so results do not depend on the order tasks run in.
  const drawn = plan.steps.map((calls, step) => calls.map((call, index) => drawCall(call, `${taskId}#${step}#${index}`, options, candidates)));
  let steps: ReplayCall[][] = drawn
    .map((calls) => calls.filter((entry) => entry.damage !== 'dropped').map((entry) => entry.call))
    .filter((calls) => calls.length > 0);
  if (options.merge && steps.length > 1) steps = [steps.flat()];
  const original = plan.steps.flat();
  const damaged = drawn.flat().flatMap((entry, index) => (entry.damage === 'intact' ? [] : [original[index] as ReplayCall]));
  const finalReply = damageReply(plan.finalReply, damaged, original, (index) => createRandom(options.seed ^ hashText(`${taskId}#reply#${index}`))());
  return { steps, finalReply };
}
