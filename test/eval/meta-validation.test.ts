// Meta-validation beyond the step metrics (test/eval/step/perturb.test.ts): the same seeded,
// nested perturbations of the real GT move the call-level classes, the final-answer proxies and
// the CV metrics the way their definitions imply, monotonically in the strength.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { TOOL_ERROR_PREFIX, UNKNOWN_TOOL_TEXT } from '../../src/core/tool-result-contract.js';
import { loadToolCatalog, type ToolCatalog } from '../../src/eval/call/catalog.js';
import { evaluateCalls } from '../../src/eval/call/evaluate.js';
import { evaluateCv } from '../../src/eval/cv/evaluate.js';
import { categorise } from '../../src/eval/cv/categories.js';
import { EmbeddingCache } from '../../src/eval/embed/cache.js';
import { createHashgramEmbedder } from '../../src/eval/embed/hashgram.js';
import { evaluateProxies } from '../../src/eval/final/proxies.js';
import { embedPairs, planPairs } from '../../src/eval/step/evaluate.js';
import { corruptValue, fromSteps, perturb, perturbText, toPredictionRecords, unitDraw, type PerturbationKind } from '../support/perturb.js';
import { serializeArguments } from '../../src/eval/step/serialize.js';
import { loadTrajectories, type Trajectory } from '../../src/eval/step/trajectory.js';
import { predictionSchema, type GtTask, type Prediction } from '../../src/tasks/schemas.js';
import { loadGroundTruth } from '../../src/tasks/load.js';
import { sharedDataDir } from '../support/shared-assets.js';

const dataDir = sharedDataDir();
const strengths = [0, 0.25, 0.5, 0.75];

function expectDown(values: number[], label: string): void {
  for (let index = 1; index < values.length; index += 1)
    expect(values[index], `${label}: ${values.join(', ')}`).toBeLessThanOrEqual((values[index - 1] ?? 0) + 1e-12);
  expect(values.at(-1), `${label}: ${values.join(', ')}`).toBeLessThan((values[0] ?? 0) - 0.01);
}
const expectUp = (values: number[], label: string) =>
  expectDown(
    values.map((value) => -value),
    `${label} (rising)`,
  );
function expectSame(values: number[], label: string): void {
  for (const value of values) expect(value, `${label}: ${values.join(', ')}`).toBeCloseTo(values[0] ?? 0, 9);
}

describe.skipIf(!dataDir)('meta-validation on the real GT', () => {
  let gt: Map<string, Trajectory>;
  let gtTasks: GtTask[];
  let catalog: ToolCatalog;
  beforeAll(() => {
    gt = loadTrajectories(path.join(dataDir ?? '', 'test_mcp_GT.json'), 'gt').byId;
    gtTasks = loadGroundTruth(path.join(dataDir ?? '', 'test_mcp_GT.json'));
    catalog = loadToolCatalog(path.join(dataDir ?? '', 'tools_catalog.json'));
  });

  describe('call-level classes', () => {
    /** Prediction records with the result the host records: Unknown tool for a tool no server has, else a normal answer. */
    const predictions = (
      trajectories: Map<string, Trajectory>,
      result: (id: string, step: number, index: number) => string = () => '{"status":"done","items":[1]}',
    ): Prediction[] =>
      toPredictionRecords(trajectories).map((record) => {
        const recorded = (call: Record<string, unknown>, id: string, step: number, index: number) =>
          catalog.tools.has(String(call.name)) ? result(id, step, index) : `${TOOL_ERROR_PREFIX}${UNKNOWN_TOOL_TEXT} ${String(call.name)}`;
        const steps = (record.steps as Array<{ step: number; calls: Array<Record<string, unknown>> }>).map((step) => ({
          ...step,
          calls: step.calls.map((call, index) => ({ ...call, result: recorded(call, String(record.id), step.step, index) })),
        }));
        return predictionSchema.parse({ ...record, question: 'q', steps, dialogue: steps.map(() => ({ prepare: '', work: { tool_calls: [{}] }, end: 'no' })) });
      });
    const shares = async (records: Prediction[]) => {
      const analysis = await evaluateCalls(records, { catalog });
      const total = analysis.success + analysis.unknown_tool + analysis.invalid_arguments + analysis.resource_not_found;
      return {
        success: analysis.success / total,
        unknown_tool: analysis.unknown_tool / total,
        invalid_arguments: analysis.invalid_arguments / total,
        resource_not_found: analysis.resource_not_found / total,
      };
    };
    /** Drops one required argument of every hit call whose tool has one. */
    const dropRequired = (strength: number): Map<string, Trajectory> =>
      new Map(
        [...gt].map(([id, trajectory]) => [
          id,
          fromSteps(
            trajectory,
            Array.from({ length: trajectory.stepCount }, (_, s) =>
              trajectory.calls
                .filter((call) => call.stepIndex === s)
                .map((call, c) => {
                  const required = (catalog.tools.get(call.tool)?.inputSchema?.required as string[] | undefined) ?? [];
                  const args = call.arguments && typeof call.arguments === 'object' ? (call.arguments as Record<string, unknown>) : undefined;
                  const name = required.find((key) => args && key in args);
                  if (!args || !name || unitDraw(7, 'drop-required', id, s, c) >= strength) return call;
                  const { [name]: _dropped, ...rest } = args;
                  return { ...call, arguments: rest, text: serializeArguments(rest) };
                }),
            ),
            true,
          ),
        ]),
      );

    it('renamed tools raise unknown_tool and lower success', async () => {
      const rows = await Promise.all(strengths.map(async (strength) => shares(predictions(perturb(gt, 'rename-tools', strength, 42)))));
      expectUp(
        rows.map((row) => row.unknown_tool),
        'unknown_tool',
      );
      expectDown(
        rows.map((row) => row.success),
        'success',
      );
    });

    it('dropped required arguments raise invalid_arguments and lower success', async () => {
      const rows = await Promise.all(strengths.map(async (strength) => shares(predictions(dropRequired(strength)))));
      expectUp(
        rows.map((row) => row.invalid_arguments),
        'invalid_arguments',
      );
      expectDown(
        rows.map((row) => row.success),
        'success',
      );
      expectSame(
        rows.map((row) => row.unknown_tool),
        'unknown_tool',
      );
    });

    it('not-found results raise resource_not_found and lower success', async () => {
      const rows = await Promise.all(
        strengths.map(async (strength) =>
          shares(
            predictions(gt, (id, step, index) =>
              unitDraw(9, 'not-found', id, step, index) < strength ? '[Tool error] Error: 404 Not Found: no such resource' : '{"status":"done","items":[1]}',
            ),
          ),
        ),
      );
      expectUp(
        rows.map((row) => row.resource_not_found),
        'resource_not_found',
      );
      expectDown(
        rows.map((row) => row.success),
        'success',
      );
    });
  });

  describe('final-answer proxies', () => {
    it('replaced words in the final replies lower every proxy, and missing predictions lower the _all rates', () => {
      const replies = (strength: number) =>
        predictionSchema.array().parse(gtTasks.map((task) => ({ ...task, final_reply: perturbText(task.final_reply, strength, 5, task.id), dialogue: [] })));
      const rows = strengths.map((strength) => evaluateProxies(gtTasks, replies(strength)).aggregate);
      for (const metric of ['token_f1', 'rouge_l', 'number_recall', 'entity_recall'] as const)
        expectDown(
          rows.map((row) => row[metric] ?? Number.NaN),
          metric,
        );
      const dropped = strengths.map(
        (strength) =>
          evaluateProxies(
            gtTasks,
            replies(0).filter((prediction) => unitDraw(3, 'drop-tasks', prediction.id) >= strength),
          ).aggregate,
      );
      expectDown(
        dropped.map((row) => row.token_f1_all ?? Number.NaN),
        'token_f1_all',
      );
      expectSame(
        dropped.map((row) => row.token_f1 ?? Number.NaN),
        'token_f1 (scored tasks only)',
      );
    }, 180_000);
  });

  describe('CV metrics', () => {
    const embedder = createHashgramEmbedder();
    const cache = EmbeddingCache.memory(embedder.id);
    const cvRows = async (make: (strength: number) => Map<string, Trajectory>) => {
      const rows = [];
      for (const strength of strengths) {
        const pred = make(strength);
        const similarity = await embedPairs(planPairs(gt, pred, 'default'), embedder, cache, false);
        rows.push(evaluateCv(gt, pred, similarity, { mode: 'default', tauWeak: 0.6 }).aggregate);
      }
      return rows;
    };
    const kinds: Array<[PerturbationKind, 'down' | 'same']> = [
      ['drop-calls', 'down'],
      ['rename-tools', 'down'],
      ['corrupt-arguments', 'down'],
      ['drop-tasks', 'down'],
      ['split-steps', 'same'],
      ['merge-steps', 'same'],
      ['reverse-steps', 'same'],
    ];

    it.each(kinds)('%s moves perception recall and grounding similarity %s', async (kind, direction) => {
      const rows = await cvRows((strength) => perturb(gt, kind, strength, 42));
      for (const metric of ['perception_recall_avg', 'grounding_arg_sim_avg'] as const)
        (direction === 'down' ? expectDown : expectSame)(
          rows.map((row) => row[metric]),
          `${kind} ${metric}`,
        );
      if (direction === 'same')
        expectSame(
          rows.map((row) => row.visual_reasoning_ability ?? Number.NaN),
          `${kind} visual_reasoning_ability`,
        );
    });

    it('corrupting only the vision calls lowers visual reasoning ability and leaves the applicable tasks unchanged', async () => {
      const rows = await cvRows(
        (strength) =>
          new Map(
            [...gt].map(([id, trajectory]) => [
              id,
              {
                ...trajectory,
                calls: trajectory.calls.map((call, index) => {
                  if (categorise(call.tool) === 'planning' || unitDraw(11, 'vision', id, index) >= strength) return call;
                  const value = corruptValue(call.arguments, 11, id, index);
                  return { ...call, arguments: value, text: serializeArguments(value) };
                }),
              },
            ]),
          ),
      );
      expectDown(
        rows.map((row) => row.visual_reasoning_ability ?? Number.NaN),
        'visual_reasoning_ability',
      );
      expectSame(
        rows.map((row) => row.num_vision_tasks),
        'num_vision_tasks',
      );
    });
  });
});
