// Upper bounds on an episode's rounds and an orchestrator's subtasks: `--max-step 1000000000000`,
// `max_steps: 1000000000000` in a benchmark file and `max_subtasks: 100000000` are refused with
// the flag or field and the limit, before any server starts; the library refuses them too.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentOptionsFrom, MAX_STEP_LIMIT } from '../../src/agent/options.js';
import { MAX_SUBTASKS_LIMIT } from '../../src/agent/workflow-definition.js';
import { benchDefinition } from '../../src/cli/bench-file.js';
import { parseSwitches } from '../../src/config/switches.js';
import { runM3, taskFolder } from './run-child.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-loop-caps-'));

function benchFile(agentSteps: string, workflow = ''): string {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(
    file,
    `kind: llm
spec:
  name: llm-1
  type: openai
  config:
    model_name: gpt-4o
---
kind: agent
spec:
  name: looper
  type: function-call
  config:
    llm: llm-1
    max_steps: ${agentSteps}
---
${workflow}kind: benchmark
spec:
  agent: ${workflow ? 'planner' : 'looper'}
  tasks:
    - tasks.json
`,
  );
  return file;
}

describe('caps on rounds and subtasks', () => {
  it('m3 run --max-step 1000000000000 is refused before any server starts', async () => {
    const folder = taskFolder('max-step-cap', [{ id: 't1', image: 'none.png' }]);
    const run = await runM3(['run', '--model', 'replay:gt', '--max-step', '1000000000000', ...folder.args], {});
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--max-step "1000000000000": 1000000000000 rounds is above the limit of ${MAX_STEP_LIMIT}`);
    expect(run.stderr).not.toContain('over 1 task(s)');
  }, 60_000);

  it('a benchmark file with max_steps: 1000000000000 names the document and the limit', () => {
    const file = benchFile('1000000000000');
    expect(() => benchDefinition(file, {})).toThrow(
      `${file}: document 2 (kind: agent): at spec.config.max_steps: expected at most ${MAX_STEP_LIMIT} rounds (the limit on max_steps; the reference runs 6)`,
    );
    expect(benchDefinition(benchFile(String(MAX_STEP_LIMIT)), {}).maxStep).toBe(String(MAX_STEP_LIMIT));
  });

  it('an orchestrator with max_subtasks: 100000000 is refused', () => {
    const workflow = `kind: workflow
spec:
  name: planner
  type: orchestrator
  config:
    llm: llm-1
    agents: [looper]
    max_subtasks: 100000000
---
`;
    const file = benchFile('6', workflow);
    expect(() => benchDefinition(file, {})).toThrow(
      `at spec.config.max_subtasks: expected at most ${MAX_SUBTASKS_LIMIT} subtasks (the limit on max_subtasks: each subtask runs a whole agent)`,
    );
  });

  it('the agent options refuse both caps too, for callers that bypass the CLI', () => {
    const switches = parseSwitches({});
    const limits = { maxStep: 6, maxConcurrent: 1, topTools: 0, maxNewTokens: 100 };
    expect(() => agentOptionsFrom(switches, { ...limits, maxStep: 1e12 }, [])).toThrow(
      `max steps: 1000000000000 rounds is above the limit of ${MAX_STEP_LIMIT}`,
    );
    const workflow = { name: 'w', type: 'orchestrator' as const, agents: [{ name: 'a', kind: 'function-call' as const }], maxSubtasks: 1e8 };
    expect(() => agentOptionsFrom(switches, { ...limits, workflow }, [])).toThrow(
      `workflow "w": max_subtasks 100000000 is above the limit of ${MAX_SUBTASKS_LIMIT}`,
    );
    expect(agentOptionsFrom(switches, { ...limits, maxStep: MAX_STEP_LIMIT }, []).maxStep).toBe(MAX_STEP_LIMIT);
  });
});
