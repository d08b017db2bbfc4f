// Chart data for a small results fixture: the configs must carry the expected series, labels
// and values (pixels are checked in render.test.ts).
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadToolCatalog } from '../../src/eval/call/catalog.js';
import {
  callDonutFigure,
  finalJudgeFigure,
  finalProxyFigure,
  illegalCallingFigure,
  leaderboardColors,
  leaderboardFigure,
  scoreAxisMax,
  stepMetricsFigure,
  toolsPerServerFigure,
} from '../../src/report/chart-configs.js';
import { buildLeaderboard, displayName, roundsCsv, stepCsvColumns, stepEvalCsv } from '../../src/report/leaderboard.js';
import { discoverModels, loadAllResults } from '../../src/report/load-results.js';
import { buildTierRows, loadTiers } from '../../src/report/tiers.js';
import { sharedDataDir } from '../support/shared-assets.js';
import { createResultsFixture } from './fixture.js';

const fixture = createResultsFixture();
afterAll(() => rmSync(fixture.root, { recursive: true, force: true }));
const { models } = loadAllResults(fixture.resultsDir);
const rows = buildLeaderboard(models);
const gptAverage = (0.9 + 0.8 + 0.7 + 0.6 + 0.5 + 0.4 + 0.6) / 7;

describe('results discovery', () => {
  it('finds model folders holding any evaluation output and skips others', () => {
    expect(discoverModels(fixture.resultsDir)).toEqual(['glm-4.5v', 'gpt-5-mini', 'local-x']);
    expect(loadAllResults(fixture.resultsDir, ['gpt-5-mini', 'nope']).missing).toEqual(['nope']);
  });
});

describe('leaderboard', () => {
  it('averages six step metrics and information grounding, skipping missing values, sorted ascending', () => {
    expect(rows.map((row) => row.model)).toEqual(['glm-4.5v', 'gpt-5-mini']);
    expect(rows[1]?.average).toBeCloseTo(gptAverage, 12);
    expect(rows[0]?.average).toBeCloseTo(0.9 / 5, 12);
    expect(rows[1]?.display).toBe('GPT-5 Mini');
    expect(displayName('glm-4.5v')).toBe('GLM 4.5v');
    expect(displayName('gemini-2.5-flash-lite')).toBe('Gemini 2.5 Flash Lite');
  });

  it('builds the horizontal bar chart best-first with an axis that does not clip (bug 43)', () => {
    const figure = leaderboardFigure(rows);
    const { config } = figure;
    expect(config.type).toBe('bar');
    expect(config.data.labels).toEqual(['GPT-5 Mini', 'GLM 4.5v']);
    expect(config.data.datasets[0]?.data[0]).toBeCloseTo(gptAverage, 12);
    expect(config.data.datasets[0]?.backgroundColor).toEqual([leaderboardColors.top, leaderboardColors.top]);
    expect(config.options?.indexAxis).toBe('y');
    const xAxis = config.options?.scales?.x as { max: number };
    expect(xAxis.max).toBe(0.75);
    expect(scoreAxisMax([0.9])).toBe(1);
    expect(scoreAxisMax([0.6])).toBeGreaterThan(0.6);
  });

  it('defines Average score on the figure and names information grounding only when a judge scored it', () => {
    const judged = leaderboardFigure(rows).config.options?.plugins;
    expect(judged?.title && 'text' in judged.title ? judged.title.text : '').toBe(
      'Step-level leaderboard: mean of the six step metrics and information grounding',
    );
    expect(judged?.subtitle?.text).toEqual([
      'Average score = mean of recall, precision, avg_sim_all_cov, step_coherence_cov, order_consistency_cov, merge_purity_cov,',
      'and information_grounding_rate (judge ensemble), skipping missing values',
    ]);
    const unjudged = leaderboardFigure(rows.map((row) => ({ ...row, information_grounding_rate: Number.NaN }))).config.options?.plugins;
    expect(unjudged?.title && 'text' in unjudged.title ? unjudged.title.text : '').toBe('Step-level leaderboard: mean of the six step metrics');
    expect(String(unjudged?.subtitle?.text)).toContain('no judge scores here, so information grounding is not part of it');
  });

  it('builds the grouped chart with one series per step metric', () => {
    const { config } = stepMetricsFigure(rows);
    expect(config.data.labels).toEqual(['GPT-5 Mini', 'GLM 4.5v']);
    expect(config.data.datasets.map((dataset) => dataset.label)).toEqual([
      'recall',
      'precision',
      'avg_sim_all_cov',
      'avg_sim_strong_cov',
      'step_coherence_cov',
      'order_consistency_cov',
      'merge_purity_cov',
    ]);
    expect(config.data.datasets[0]?.data).toEqual([0.9, 0.2]);
    expect(config.data.datasets[2]?.data).toEqual([0.7, null]);
  });

  it('writes the reference CSV columns in leaderboard order', () => {
    const [header, first, second] = stepEvalCsv(rows).trim().split('\n');
    expect(header?.split(',')).toEqual([...stepCsvColumns]);
    expect(header).toBe(
      'model,recall,precision,avg_sim_all_cov,step_coherence_cov,order_consistency_cov,merge_purity_cov,completion_rate,information_grounding_rate,_path,Average score',
    );
    const glm = first?.split(',') ?? [];
    expect(glm.slice(0, 4)).toEqual(['GLM 4.5v', '0.2', '0.1', '']);
    expect(glm[9]).toBe(path.join(fixture.resultsDir, 'glm-4.5v', 'results_eval.json'));
    expect(Number(glm[10])).toBeCloseTo(0.18, 12);
    expect(second?.split(',').slice(7, 9)).toEqual(['0.75', '0.6']);
    expect(roundsCsv(rows).trim().split('\n')).toEqual(['model,avg_Rounds,avg_tool_calls', 'GLM 4.5v,4,2.25', 'GPT-5 Mini,2.5,6']);
  });
});

describe('call-level charts', () => {
  it('draws one donut per model in a fixed category order, with illegal calling labelled in tasks', () => {
    const gpt = models.find((results) => results.model === 'gpt-5-mini');
    const glm = models.find((results) => results.model === 'glm-4.5v');
    const gptDonut = gpt && callDonutFigure(gpt);
    expect(gptDonut?.name).toBe('call_categories_gpt-5-mini');
    expect(gptDonut?.config.data.datasets[0]?.data).toEqual([10, 5, 3, 2, 1]);
    expect(gptDonut?.config.data.labels?.[0]).toBe('Success: 10 (47.6%)');
    expect(gptDonut?.config.data.labels?.[4]).toBe('Unclassified: 1 (4.8%)');
    expect(gptDonut?.config.options?.plugins?.subtitle).toMatchObject({ text: 'Illegal calling: 1 of 3 tasks (counted per task, not per call)' });
    const glmDonut = glm && callDonutFigure(glm);
    expect(glmDonut?.config.data.datasets[0]?.data).toEqual([5, 0, 1, 4]);
    expect(glmDonut?.config.data.datasets[0]?.backgroundColor).toEqual(gptDonut?.config.data.datasets[0]?.backgroundColor.slice(0, 4));
    expect(glmDonut?.config.options?.plugins?.subtitle).toMatchObject({ text: 'Illegal calling: 2 tasks (counted per task, not per call)' });
  });

  it('keeps illegal calling in its own chart, counted in tasks', () => {
    const figure = illegalCallingFigure(models);
    // GLM's callanalysis.json has no task total (reference style), GPT-5 Mini's has 3 tasks.
    expect(figure?.config.data.labels).toEqual(['GLM 4.5v: 2 tasks', 'GPT-5 Mini: 1 of 3 tasks']);
    expect(figure?.config.data.datasets[0]?.data).toEqual([2, 1]);
    expect(figure?.config.data.datasets[0]?.label).toBe('tasks with illegal calling');
    expect(figure?.config.options?.scales?.x?.max).toBe(3);
    expect(figure?.config.options?.plugins?.subtitle?.text).toBe('a task counts once if any round had no parseable tool call');
  });

  it('says so when no task had illegal calling, instead of an empty frame', () => {
    const clean = models
      .filter((results) => results.calls)
      .map((results) => ({ ...results, calls: { ...(results.calls as NonNullable<typeof results.calls>), illegal_calling: 0 } }));
    const figure = illegalCallingFigure(clean);
    expect(figure?.config.data.datasets[0]?.data).toEqual([0, 0]);
    expect(figure?.config.options?.plugins?.subtitle?.text).toMatch(/^No task had illegal calling: 0 for each of the 2 model\(s\)/);
  });
});

describe('final-answer charts', () => {
  it('shows judge scores and proxies in separate, labelled charts', () => {
    const judges = finalJudgeFigure(models);
    expect(judges?.config.data.labels).toEqual(['GPT-5 Mini']);
    expect(judges?.config.data.datasets.map((dataset) => [dataset.label, dataset.data[0]])).toEqual([
      ['Task completion (scored tasks)', 0.75],
      ['Task completion (all GT ids, missing = 0)', 0.5],
      ['Information grounding (scored tasks)', 0.6],
      ['Information grounding (all GT ids, missing = 0)', 0.4],
    ]);
    const proxies = finalProxyFigure(models);
    expect(proxies?.title).toMatch(/PROXIES.*not judge scores/);
    expect(proxies?.config.data.labels).toEqual(['GPT-5 Mini', 'Local X']);
    expect(proxies?.config.data.datasets.map((dataset) => dataset.label)).toEqual([
      'token_f1 (proxy)',
      'rouge_l (proxy)',
      'number_recall (proxy)',
      'entity_recall (proxy)',
    ]);
    expect(proxies?.config.data.datasets[3]?.data).toEqual([null, 0]);
  });
});

describe('per-tier breakdown', () => {
  it('averages per-id step metrics and judge scores per tier', () => {
    const tierRows = buildTierRows(models, loadTiers([fixture.gtFile]));
    expect(tierRows).toEqual([
      { model: 'gpt-5-mini', tier: 'basic', tasks: 2, recall: 0.75, precision: 0.625, completion: 0.9, grounding: 0.8, proxyTokenF1: 0.5 },
      { model: 'gpt-5-mini', tier: 'chain', tasks: 1, recall: 0, precision: 0, completion: 0.6, grounding: 0.4, proxyTokenF1: Number.NaN },
      {
        model: 'local-x',
        tier: 'chain',
        tasks: 1,
        recall: Number.NaN,
        precision: Number.NaN,
        completion: Number.NaN,
        grounding: Number.NaN,
        proxyTokenF1: 0.25,
      },
    ]);
  });
});

describe('tools per server', () => {
  const dataDir = sharedDataDir();
  it.skipIf(!dataDir)('counts the tools of the shared catalog per enabled server, largest first', () => {
    const { config } = toolsPerServerFigure(loadToolCatalog(path.join(dataDir ?? '', 'tools_catalog.json')));
    expect(config.data.labels).toHaveLength(27);
    expect(config.data.labels?.slice(0, 5)).toEqual(['ppt', 'excel', 'paper_search', 'math', 'google-maps']);
    expect(config.data.datasets[0]?.data.slice(0, 5)).toEqual([37, 25, 23, 22, 19]);
  });
});
