// `m3 bench` files against `m3 run` flags: the same RunDefinition, hence the same loop limits and
// manifest config hash; schema errors name the file, document, kind and key.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { benchDefinition } from '../../src/cli/bench-file.js';
import { addRunOptions } from '../../src/cli/commands/run.js';
import { loopLimitsOf, type RunDefinition } from '../../src/runner/run-definition.js';
import { configHash } from '../../src/runner/manifest.js';
import { loadTaskSet } from '../../src/runner/task-set.js';
import { repoRoot } from '../support/shared-assets.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-bench-'));

function yamlFile(text: string): string {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, text);
  return file;
}

const benchText = (agentType = 'react') => `kind: llm
spec:
  name: llm-1
  type: openai
  config:
    model_name: \${BENCH_MODEL:-gpt-4o}
---
kind: agent
spec:
  name: ReAct-agent
  type: ${agentType}
  config:
    llm: llm-1
    instruction: You are an agent for weather forecasting.
    servers:
      - name: weather
---
kind: benchmark
spec:
  description: Test the agent for weather forecasting
  agent: ReAct-agent
  tasks:
    - tasks/weather.json
`;

function fromFlags(args: string[]): RunDefinition {
  const command = addRunOptions(new Command().exitOverride());
  command.parse(args, { from: 'user' });
  return { ...(command.opts() as RunDefinition), defaultModel: command.getOptionValueSource('model') === 'default' };
}

/** The manifest's config hash as run-model.ts computes it, for one server list and switch set. */
const hashOf = (definition: RunDefinition) => configHash({ servers: definition.servers, switches: { M3_X: 1 }, limits: loopLimitsOf(definition) });

describe('m3 bench files', () => {
  it('build the same run definition and manifest hash as the equivalent m3 run flags', () => {
    const file = yamlFile(benchText());
    const fromYaml = benchDefinition(file, {});
    const flags = fromFlags([
      '--model',
      'openai:gpt-4o',
      '--agent',
      'react',
      '--instruction',
      'You are an agent for weather forecasting.',
      '--servers',
      'weather',
      '--tasks',
      path.join(dir, 'tasks/weather.json'),
    ]);
    expect(fromYaml).toEqual({ ...flags, defaultModel: undefined } satisfies RunDefinition);
    expect({ ...fromYaml, defaultModel: false }).toEqual(flags);
    expect(hashOf(fromYaml)).toBe(hashOf(flags));
    expect(loopLimitsOf(fromYaml)).toMatchObject({ agent: 'react', instruction: 'You are an agent for weather forecasting.', maxStep: 6 });
    // A different agent kind is a different run.
    expect(hashOf(benchDefinition(yamlFile(benchText('function-call')), {}))).not.toBe(hashOf(flags));
  });

  it('fills ${VAR} from the environment as mcp_servers.json does', () => {
    expect(benchDefinition(yamlFile(benchText()), { BENCH_MODEL: 'gpt-4.1' }).model).toEqual(['openai:gpt-4.1']);
    const unset = yamlFile(benchText().replace('${BENCH_MODEL:-gpt-4o}', '${BENCH_MODEL}'));
    expect(() => benchDefinition(unset, {})).toThrow(/document 1\.spec\.config\.model_name: variable \$\{BENCH_MODEL\} is not set/);
  });

  it('names the document, kind, key and expected form in schema errors', () => {
    expect(() => benchDefinition(yamlFile(benchText('reactive')), {})).toThrow(
      /document 2 \(kind: agent\): at spec\.type: Invalid option: expected one of "function-call"\|"react"\|"basic"/,
    );
    const noLlm = yamlFile(benchText().replace('llm: llm-1', 'llm: llm-2'));
    expect(() => benchDefinition(noLlm, {})).toThrow(/agent "ReAct-agent": spec\.config\.llm: no kind: llm document named "llm-2"/);
    const typo = yamlFile(benchText().replace('  agent: ReAct-agent\n  tasks', '  agnet: ReAct-agent\n  tasks'));
    expect(() => benchDefinition(typo, {})).toThrow(/document 3 \(kind: benchmark\): at spec\.agent: .*expected string/);
  });
});

describe('the documented benchmark example (docs/benchmark-files.md)', () => {
  const exampleFile = path.join(repoRoot, 'examples', 'mcp-universe', 'benchmark.yaml');

  it('is the file in examples/ as docs/benchmark-files.md shows it, and loads into a run of both task formats', () => {
    const doc = readFileSync(path.join(repoRoot, 'docs', 'benchmark-files.md'), 'utf8');
    expect(doc).toContain(`\`\`\`yaml\n${readFileSync(exampleFile, 'utf8')}\`\`\``);
    const definition = benchDefinition(exampleFile, { BENCH_MODEL: 'gpt-4.1' });
    expect(definition).toMatchObject({
      model: ['openai:gpt-4.1'],
      agent: 'react',
      servers: ['weather', 'math'],
      tasks: [path.join(repoRoot, 'examples/mcp-universe/weather.json'), path.join(repoRoot, 'examples/mcp-universe/math-tasks.json')],
    });
    const [tasksFile, ...extraTaskFiles] = definition.tasks;
    const set = loadTaskSet({ tasksFile: tasksFile as string, extraTaskFiles, fuzzy: true });
    expect(set.tasks.map((task) => [task.id, task.universe?.servers ?? null])).toEqual([
      ['weather', ['weather']],
      ['sum-1', null],
    ]);
    expect(set.gtFile).toBe(path.join(repoRoot, 'examples/mcp-universe/math-tasks.json'));
  });
});

describe('workflow documents', () => {
  const workflowFile = path.join(repoRoot, 'examples', 'mcp-universe', 'workflow.yaml');
  const text = readFileSync(workflowFile, 'utf8');

  it('become the run definition of a workflow: one model, the tool users servers, the definition in the loop limits', () => {
    const definition = benchDefinition(workflowFile, { BENCH_MODEL: 'gpt-4.1' });
    expect(definition).toMatchObject({ model: ['openai:gpt-4.1'], servers: ['weather'], tasks: [path.join(repoRoot, 'examples/mcp-universe/weather.json')] });
    expect(definition.workflow).toEqual({
      name: 'orchestrator-workflow',
      type: 'orchestrator',
      agents: [
        { name: 'basic-agent', kind: 'basic', instruction: 'Return the latitude and the longitude of a place.' },
        {
          name: 'function-call-agent',
          kind: 'function-call',
          instruction: 'You are an agent for weather forecast. Please return the weather today at the given latitude and longitude.',
          servers: ['weather'],
        },
      ],
      maxSubtasks: 5,
    });
    const limits = loopLimitsOf(definition);
    expect(limits.workflow).toBe(definition.workflow);
    expect(limits).not.toHaveProperty('agent');
    // Another workflow type is another run (another config hash).
    const chain = benchDefinition(yamlFile(text.replace('type: orchestrator ', 'type: chain ')), {});
    expect(chain.workflow?.type).toBe('chain');
    expect(hashOf(chain)).not.toBe(hashOf(benchDefinition(workflowFile, {})));
  });

  it('name the document, key and expected form in their errors', () => {
    const broken = (from: string | RegExp, to: string) => yamlFile(text.replace(from, to));
    expect(() => benchDefinition(broken('type: orchestrator ', 'type: pipeline '), {})).toThrow(
      /document 4 \(kind: workflow\): at spec\.type: Invalid option: expected one of "chain"\|"router"\|"orchestrator"/,
    );
    expect(() => benchDefinition(broken(/type: orchestrator.*\n {2}config:\n {4}llm: llm-1\n/, 'type: router\n  config:\n'), {})).toThrow(
      /document 4 \(kind: workflow\): at spec\.config\.llm: a router workflow plans with a model: expected the name of a kind: llm document/,
    );
    expect(() => benchDefinition(broken('      - function-call-agent\n\n---', '      - weather-agent\n\n---'), {})).toThrow(
      /document 4 \(kind: workflow\): spec\.config\.agents\[1\]: no kind: agent document named "weather-agent"/,
    );
    expect(() => benchDefinition(broken('      - function-call-agent\n\n---', '      - orchestrator-workflow\n\n---'), {})).toThrow(
      /spec\.config\.agents\[1\]: "orchestrator-workflow" is a workflow; a workflow's agents must be kind: agent documents/,
    );
    expect(() => benchDefinition(broken('    agents:', '    agent_list:'), {})).toThrow(
      /document 4 \(kind: workflow\): at spec\.config\.agents: .*expected array/,
    );
    const twoModels = `${text}\n---\nkind: llm\nspec:\n  name: llm-2\n  type: anthropic\n  config:\n    model_name: claude-x\n`.replace(
      'type: basic\n  config:\n    llm: llm-1',
      'type: basic\n  config:\n    llm: llm-2',
    );
    expect(() => benchDefinition(yamlFile(twoModels), {})).toThrow(
      /document 4 \(kind: workflow\): the workflow and its agents must use one model \(a run has one model\); found openai:gpt-4o \(workflow "orchestrator-workflow"\), anthropic:claude-x \(agent "basic-agent"\)/,
    );
  });
});
