// The error-taxonomy rules on crafted trajectories, one per class (tool use: invalid arguments,
// wrong tool, omitted call, redundant call; information synthesis; reasoning; undetermined), and
// through buildTaskRecord so the checks that decide a task feed the answer rules. Every label
// must carry the evidence that produced it.
import { describe, expect, it } from 'vitest';
import { RuleRegistry } from '../../../src/eval/rules/evaluate.js';
import { serializeArguments } from '../../../src/eval/step/serialize.js';
import type { Trajectory } from '../../../src/eval/step/trajectory.js';
import type { TaskAlignment } from '../../../src/eval/task/alignment.js';
import { buildTaskRecord, type TaskInput } from '../../../src/eval/task/task-record.js';
import { classifyFailure, type TaxonomyInput } from '../../../src/eval/task/taxonomy.js';
import { evaluatorSchema } from '../../../src/tasks/task-checks.js';

type CallSpec = [tool: string, args: Record<string, unknown>, result?: string];

function trajectory(id: string, steps: CallSpec[][]): Trajectory {
  return {
    id,
    type: 'crafted',
    stepCount: steps.length,
    calls: steps.flatMap((calls, stepIndex) =>
      calls.map(([tool, args, result], callIndexInStep) => ({ tool, arguments: args, text: serializeArguments(args), stepIndex, callIndexInStep, result })),
    ),
  };
}

function alignment(matches: Array<[gt: number, pred: number]>, gtCount: number, predCount: number): TaskAlignment {
  const gtMatched = new Set(matches.map(([gt]) => gt));
  const predMatched = new Set(matches.map(([, pred]) => pred));
  return {
    matches: matches.map(([gt, pred]) => ({ gt, pred, similarity: 0.95 })),
    unmatchedGt: [...Array(gtCount).keys()].filter((index) => !gtMatched.has(index)),
    unmatchedPred: [...Array(predCount).keys()].filter((index) => !predMatched.has(index)),
    recall: gtCount === 0 ? 1 : matches.length / gtCount,
    precision: predCount === 0 ? 1 : matches.length / predCount,
    source: 'computed',
  };
}

const gt = trajectory('T1', [[['weather/get_forecast', { city: 'Paris' }]], [['math/add', { a: 14, b: 3 }]]]);

function input(pred: Trajectory, matches: Array<[number, number]>, extra: Partial<TaxonomyInput> = {}): TaxonomyInput {
  return {
    gt,
    gtExpectError: gt.calls.map(() => false),
    pred,
    missingPrediction: false,
    requireEveryGtCall: true,
    callLabels: pred.calls.map(() => ({ label: 'success' })),
    alignment: alignment(matches, gt.calls.length, pred.calls.length),
    reply: 'The forecast high is 17.',
    missingContent: [],
    failedToolChecks: [],
    ...extra,
  };
}

const labelsOf = (taxonomy: ReturnType<typeof classifyFailure>) => taxonomy.labels.map((item) => [item.label, item.evidence.rule]);

describe('taxonomy rules, one class at a time', () => {
  it('invalid_arguments: a call the call level labels invalid, and the right tool with arguments too far from the GT', () => {
    const pred = trajectory('T1', [[['weather/get_forecast', { city: 'Paris' }]], [['math/add', { a: 'fourteen' }]]]);
    const labelled = classifyFailure(input(pred, [[0, 0]], { callLabels: [{ label: 'success' }, { label: 'invalid_arguments', detail: 'b is required' }] }));
    expect(labelled.primary).toBe('invalid_arguments');
    expect(labelled.category).toBe('tool_use');
    expect(labelsOf(labelled)).toEqual([
      ['invalid_arguments', 'call_label'],
      ['invalid_arguments', 'argument_mismatch'],
    ]);
    expect(labelled.labels[0]?.evidence).toMatchObject({ pred_call: { index: 1, step: 2, tool: 'math/add' } });
    expect(labelled.labels[0]?.evidence.detail).toContain('b is required');
    expect(labelled.labels[1]?.evidence).toMatchObject({ gt_call: { index: 1, tool: 'math/add' }, pred_call: { index: 1 } });
  });

  it('wrong_tool: another tool in place of the GT call, and an unknown tool', () => {
    const pred = trajectory('T1', [[['weather/get_forecast', { city: 'Paris' }]], [['math/multiply', { a: 14, b: 3 }]]]);
    const substituted = classifyFailure(input(pred, [[0, 0]]));
    expect(substituted.primary).toBe('wrong_tool');
    expect(labelsOf(substituted)).toEqual([['wrong_tool', 'substituted_tool']]);
    expect(substituted.labels[0]?.evidence.detail).toBe('math/multiply called instead of math/add');

    const unknown = classifyFailure(input(pred, [[0, 0]], { callLabels: [{ label: 'success' }, { label: 'unknown_tool' }] }));
    expect(labelsOf(unknown)[0]).toEqual(['wrong_tool', 'unknown_tool']);
  });

  it('omitted_call: a GT call nobody made, and no prediction at all', () => {
    const pred = trajectory('T1', [[['weather/get_forecast', { city: 'Paris' }]]]);
    const omitted = classifyFailure(input(pred, [[0, 0]]));
    expect(omitted.primary).toBe('omitted_call');
    expect(labelsOf(omitted)).toEqual([['omitted_call', 'unmatched_gt_call']]);
    expect(omitted.labels[0]?.evidence.gt_call).toEqual({ index: 1, step: 2, tool: 'math/add' });

    const none = classifyFailure({ ...input(trajectory('T1', []), []), missingPrediction: true, alignment: undefined });
    expect(labelsOf(none)).toEqual([['omitted_call', 'no_prediction']]);
  });

  it('a GT call that fails by design is required only under the step-exact rule', () => {
    const designed = { ...input(trajectory('T1', [[['math/add', { a: 14, b: 3 }]]]), [[1, 0]]), gtExpectError: [true, false] };
    expect(labelsOf(classifyFailure(designed))).toEqual([['omitted_call', 'omitted_expected_failure']]);
    const checks = classifyFailure({ ...designed, requireEveryGtCall: false, missingContent: [{ source: 'precise answer', value: 17 }] });
    expect(checks.primary).toBe('reasoning_error');
  });

  it('redundant_call: the same call repeated; an extra call of a GT tool', () => {
    const pred = trajectory('T1', [
      [['weather/get_forecast', { city: 'Paris' }]],
      [
        ['math/add', { a: 14, b: 3 }],
        ['math/add', { a: 14, b: 3 }],
        ['weather/get_forecast', { city: 'Lyon' }],
      ],
    ]);
    const redundant = classifyFailure(
      input(
        pred,
        [
          [0, 0],
          [1, 1],
        ],
        { missingContent: [] },
      ),
    );
    expect(labelsOf(redundant).slice(0, 2)).toEqual([
      ['redundant_call', 'repeated_call'],
      ['redundant_call', 'extra_call_of_gt_tool'],
    ]);
    expect(redundant.labels[0]?.evidence.detail).toBe('math/add repeats call 1 with the same arguments');
  });

  it('an extra call of a tool the GT does not use is a wrong tool (extraneous)', () => {
    const pred = trajectory('T1', [
      [
        ['weather/get_forecast', { city: 'Paris' }],
        ['wiki/search', { q: 'Paris' }],
      ],
      [['math/add', { a: 14, b: 3 }]],
    ]);
    const extraneous = classifyFailure(
      input(pred, [
        [0, 0],
        [1, 2],
      ]),
    );
    expect(labelsOf(extraneous)).toEqual([['wrong_tool', 'extraneous_tool']]);
  });

  it('information_synthesis: the expected value is in a tool result but not in the reply; no reply at all', () => {
    const pred = trajectory('T1', [[['weather/get_forecast', { city: 'Paris' }, '{"high": 14}']], [['math/add', { a: 14, b: 3 }, '{"result": 17}']]]);
    const synthesis = classifyFailure(
      input(
        pred,
        [
          [0, 0],
          [1, 1],
        ],
        { reply: 'It will be mild.', missingContent: [{ source: 'precise answer', value: 17 }] },
      ),
    );
    expect(synthesis.primary).toBe('information_synthesis');
    expect(synthesis.category).toBe('information_synthesis');
    expect(synthesis.labels[0]?.evidence).toMatchObject({ rule: 'result_not_used', pred_call: { index: 1, tool: 'math/add' } });

    const silent = classifyFailure(
      input(
        pred,
        [
          [0, 0],
          [1, 1],
        ],
        { reply: '  ' },
      ),
    );
    expect(labelsOf(silent)).toEqual([['information_synthesis', 'no_answer']]);
  });

  it('reasoning_error: right tool outputs, and the expected value is in none of them', () => {
    const pred = trajectory('T1', [[['weather/get_forecast', { city: 'Paris' }, '{"high": 14}']], [['math/add', { a: 14, b: 3 }, '{"result": 71}']]]);
    const reasoning = classifyFailure(
      input(
        pred,
        [
          [0, 0],
          [1, 1],
        ],
        { missingContent: [{ source: 'precise answer', value: 17 }] },
      ),
    );
    expect(reasoning.primary).toBe('reasoning_error');
    expect(reasoning.category).toBe('reasoning');
    expect(reasoning.labels[0]?.evidence.detail).toContain('precise answer 17 is in no tool result');
  });

  it('undetermined when no rule explains the failure', () => {
    const pred = trajectory('T1', [[['weather/get_forecast', { city: 'Paris' }]], [['math/add', { a: 14, b: 3 }]]]);
    const open = classifyFailure(
      input(pred, [
        [0, 0],
        [1, 1],
      ]),
    );
    expect(open).toMatchObject({ primary: 'undetermined', category: 'undetermined', source: 'rules' });
    expect(open.labels[0]?.evidence.rule).toBe('no_rule_applies');
  });
});

describe('buildTaskRecord: checks decide success, and a failed one is labelled with evidence', () => {
  const pred = trajectory('T1', [[['weather/get_forecast', { city: 'Paris' }, '{"high": 14}']], [['math/add', { a: 14, b: 3 }, '{"result": 17}']]]);
  const base: TaskInput = {
    id: 'T1',
    tier: 'chain',
    type: 'crafted',
    domain: 'chain',
    spec: {
      evaluators: [evaluatorSchema.parse({ func: 'json -> get(high)', op: '=', value: 17 })],
      answer: { value: 17 },
      decisive: undefined,
      stateChecks: undefined,
      final: undefined,
      facts: undefined,
    },
    gt,
    gtExpectError: [false, false],
    prediction: { id: 'T1', steps: [], dialogue: [], final_reply: '{"high": 17}' } as unknown as TaskInput['prediction'],
    pred,
    alignment: alignment(
      [
        [0, 0],
        [1, 1],
      ],
      2,
      2,
    ),
    labels: [
      { label: 'success', infrastructure: false },
      { label: 'success', infrastructure: false },
    ],
    tokens: undefined,
  };

  it('passes when every rule and the precise answer pass', () => {
    const record = buildTaskRecord(base, new RuleRegistry());
    expect(record).toMatchObject({
      success: true,
      passed: true,
      success_rule: 'checks',
      archetype: 'precise',
      completion: 1,
      taxonomy: null,
      answer_hit: true,
    });
  });

  it('a wrong answer whose value a tool returned is an information-synthesis failure, with the failing checks', () => {
    const record = buildTaskRecord({ ...base, prediction: { ...base.prediction, final_reply: '{"high": 14}' } as TaskInput['prediction'] }, new RuleRegistry());
    expect(record.success).toBe(false);
    expect(record.checks.map((check) => check.passed)).toEqual([false, false]);
    expect(record.completion).toBe(0);
    expect(record.taxonomy?.primary).toBe('information_synthesis');
    expect(record.taxonomy?.labels.map((item) => item.evidence.rule)).toEqual(['result_not_used', 'result_not_used']);
  });
});
