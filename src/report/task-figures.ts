// The task-level figures as chart.js configurations (rendered by render-chart.ts): the error
// taxonomy distribution per model (stacked bars of failed tasks by primary label) and task success
// against max rounds K (bars grouped by K, one series per agent).
import { background, seriesPalette, type FigureSpec } from './chart-configs.js';
import { maxStepSweeps, type TaskModelResult } from './task-results.js';

/** Primary labels; the four tool-use labels in warm shades so the categories read at a glance. */
const labelStyle = [
  { key: 'invalid_arguments', label: 'Tool use: invalid arguments', color: '#e15759' },
  { key: 'wrong_tool', label: 'Tool use: wrong tool', color: '#ff9da7' },
  { key: 'omitted_call', label: 'Tool use: omitted call', color: '#9c2f3a' },
  { key: 'redundant_call', label: 'Tool use: redundant call', color: '#edc948' },
  { key: 'information_synthesis', label: 'Information synthesis', color: '#f28e2b' },
  { key: 'reasoning_error', label: 'Reasoning', color: '#4e79a7' },
  { key: 'undetermined', label: 'Undetermined', color: '#bab0ac' },
] as const;

export function taxonomyFigure(results: readonly TaskModelResult[]): FigureSpec | undefined {
  if (results.length === 0) return undefined;
  return {
    name: 'error_taxonomy',
    title: 'Error taxonomy of failed tasks',
    width: Math.max(700, 200 + 110 * results.length),
    height: 520,
    config: {
      type: 'bar',
      data: {
        labels: results.map((result) => result.display),
        datasets: labelStyle.map((style) => ({
          label: style.label,
          backgroundColor: style.color,
          data: results.map((result) => result.data.taxonomy.by_primary[style.key] ?? 0),
        })),
      },
      options: {
        responsive: false,
        animation: false,
        scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, title: { display: true, text: 'failed tasks' }, ticks: { precision: 0 } } },
        plugins: {
          title: { display: true, text: 'Failed tasks by primary error label' },
          legend: { position: 'bottom' },
          valueLabels: false,
          canvasBackground: background,
        },
      },
    },
  };
}

export function sweepFigure(results: readonly TaskModelResult[]): FigureSpec | undefined {
  const sweeps = maxStepSweeps(results);
  if (sweeps.size === 0) return undefined;
  const steps = [...new Set([...sweeps.values()].flatMap((points) => points.map((point) => point.maxStep)))].sort((a, b) => a - b);
  return {
    name: 'accuracy_vs_max_step',
    title: 'Task success vs max rounds K',
    width: Math.max(800, 160 + steps.length * 36 * Math.max(1, sweeps.size)),
    height: 520,
    config: {
      type: 'bar',
      data: {
        labels: steps.map((step) => `K = ${step}`),
        datasets: [...sweeps].map(([agent, points], index) => ({
          label: agent,
          backgroundColor: seriesPalette[index % seriesPalette.length],
          data: steps.map((step) => points.find((point) => point.maxStep === step)?.success ?? null),
        })),
      },
      options: {
        responsive: false,
        animation: false,
        scales: { y: { min: 0, max: 1, title: { display: true, text: 'task success rate' } }, x: { title: { display: true, text: 'max rounds K' } } },
        plugins: {
          title: { display: true, text: 'Task success vs max rounds K' },
          legend: { position: 'bottom' },
          valueLabels: { decimals: 2 },
          canvasBackground: background,
        },
      },
    },
  };
}
