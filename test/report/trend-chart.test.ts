// The trends figure's config for cells whose batches interleave in time (cell A in batches 1 and
// 3, cell B in 2 and 4): each segment's dataset is null at the other cell's batches, so it must
// span those gaps to be drawn as the line its legend sample shows (issue 31 item 6: the legend
// promised lines and the chart drew points), while two segments of one line stay apart.
import { describe, expect, it } from 'vitest';
import { trendFigure } from '../../src/report/trend-chart.js';
import type { TrendLine, TrendPoint } from '../../src/stats/trends.js';

const point = (batchId: string, day: number, value: number, graderKey = 'step-1'): TrendPoint => ({
  batchId,
  startedAt: `2026-11-0${day}T00:00:00.000Z`,
  file: `${batchId}.batch.json`,
  tasks: 3,
  trials: 1,
  passAt1: { estimate: value, low: value, high: value },
  recall: { estimate: value, low: value, high: value },
  graderKey,
  taskSetHash: null,
});

const line = (label: string, ...segments: TrendPoint[][]): TrendLine => ({
  label,
  segments: segments.map((points) => ({ graderKey: points[0]?.graderKey ?? '', taskSetHash: null, points })),
  crossed: [],
});

type Dataset = { label: string; data: Array<number | null>; spanGaps: boolean };

describe('trends figure', () => {
  it('draws interleaved cells as lines, and keeps two segments of one line apart', () => {
    const lines = [line('model-a', [point('b1', 1, 0.5), point('b3', 3, 0.6)]), line('model-b', [point('b2', 2, 0.7)], [point('b4', 4, 0.8, 'step-2')])];
    const datasets = (trendFigure(lines).config as { data: { datasets: Dataset[] } }).data.datasets;
    const a = datasets.find((dataset) => dataset.label === 'model-a pass@1');
    expect(a?.data).toEqual([0.5, null, 0.6, null]);
    // The gap at b2 belongs to model-b: spanning it is what draws model-a as a line.
    expect(a?.spanGaps).toBe(true);
    const segments = datasets.filter((dataset) => dataset.label.startsWith('model-b pass@1'));
    expect(segments.map((dataset) => dataset.data)).toEqual([
      [null, 0.7, null, null],
      [null, null, null, 0.8],
    ]);
  });
});
