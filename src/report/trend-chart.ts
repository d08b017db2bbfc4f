// The trend figure of `m3 trends --plot`: pass@1 (solid) and step recall (dashed) over time, one
// colour per cell (model + condition). Every segment of a trend line (src/stats/trends.ts splits
// a line where the grader versions or the task set change) is a dataset of its own, null outside
// its points, so chart.js draws no line across a boundary: the figure splits exactly where the
// text output says "segment". Within a segment the line spans the batches of other cells (their
// keys are null in this dataset): drawn as a line, as the legend's line samples promise, not as
// loose points. Pure: render-chart.ts draws it.
import type { TrendLine, TrendPoint } from '../stats/trends.js';
import { background, seriesPalette, type FigureSpec } from './chart-configs.js';

const metrics = [
  { key: 'passAt1', label: 'pass@1', dash: [] as number[] },
  { key: 'recall', label: 'recall', dash: [6, 4] },
] as const;

const pointKey = (point: TrendPoint) => `${point.startedAt} ${point.batchId}`;

export function trendFigure(lines: readonly TrendLine[], name = 'trends'): FigureSpec {
  const points = lines.flatMap((line) => line.segments.flatMap((segment) => segment.points));
  const keys = [...new Set(points.map(pointKey))].sort();
  const labels = keys.map((key) => `${key.slice(0, 16).replace('T', ' ')} ${key.slice(key.indexOf(' ') + 1)}`);
  const datasets = lines.flatMap((line, lineIndex) =>
    line.segments.flatMap((segment, segmentIndex) =>
      metrics.map((metric) => {
        const byKey = new Map(segment.points.map((point) => [pointKey(point), point[metric.key].estimate]));
        const where = line.segments.length > 1 ? ` (segment ${segmentIndex + 1}: grader ${segment.graderKey})` : '';
        const color = seriesPalette[lineIndex % seriesPalette.length] ?? '#4e79a7';
        return {
          label: `${line.label} ${metric.label}${where}`,
          data: keys.map((key) => {
            const value = byKey.get(key);
            return value !== undefined && Number.isFinite(value) ? value : null;
          }),
          borderColor: color,
          backgroundColor: color,
          borderDash: [...metric.dash],
          // Null outside this segment's points, so spanning gaps joins this segment only.
          spanGaps: true,
          pointRadius: 4,
        };
      }),
    ),
  );
  return {
    name,
    title: 'Trends: pass@1 and recall per model and condition (a line breaks where the grader or the task set changed)',
    width: 1100,
    height: 520,
    config: {
      type: 'line',
      data: { labels, datasets },
      options: {
        responsive: false,
        animation: false,
        scales: { y: { min: 0, max: 1, title: { display: true, text: 'score' } }, x: { title: { display: true, text: 'batch (started at, id)' } } },
        plugins: {
          title: { display: true, text: 'pass@1 (solid) and step recall (dashed) over time' },
          legend: { position: 'bottom' },
          canvasBackground: background,
          valueLabels: false,
        },
      },
    },
  };
}
