// The text of `m3 dataset verify`: the counts in the order of STATS.md (§2 counts, §4 images,
// §7 fuzzy vs GT, §8 oddities), then what is on disk (images, lock file), then the verdict.
// Long lists are cut to a few items with the total named, so the report stays readable.
import type { DatasetVerifyReport } from './verify.js';
import { imagesWith } from './verify.js';

const shown = 12;

function list(items: readonly string[]): string {
  if (items.length === 0) return 'none';
  const head = items.slice(0, shown).join(', ');
  return items.length > shown ? `${head}, ... (${items.length} in all)` : head;
}

function countLines(report: DatasetVerifyReport): string[] {
  const { gt, overlap, images, oddities } = report.counts;
  const identical = gt.duplicates.filter((duplicate) => duplicate.identical).map((duplicate) => duplicate.id);
  const differing = gt.duplicates.filter((duplicate) => !duplicate.identical).map((duplicate) => duplicate.id);
  return [
    'Counts (STATS.md §2; a duplicated id keeps its last entry, "all entries" counts every one)',
    `  GT entries: ${gt.entries}; unique ids: ${gt.uniqueIds}; duplicated ids: ${gt.duplicates.length} (identical copies: ${list(identical)}; differing copies: ${list(differing)})`,
    `  task types: ${gt.types} (all entries: ${gt.typesAllEntries})`,
    `  steps: ${gt.steps} (all entries: ${gt.stepsAllEntries}); steps with more than one parallel call: ${gt.parallelSteps} (all entries: ${gt.parallelStepsAllEntries}); tasks with a parallel step: ${gt.tasksWithParallelStep}`,
    `  tool calls: ${gt.calls} (all entries: ${gt.callsAllEntries}); distinct servers: ${gt.servers}; distinct tools: ${gt.tools}`,
    `  fuzzy tasks: ${overlap.fuzzyTasks} (${overlap.fuzzyUniqueIds} unique ids, ${overlap.fuzzyTypes} types); fuzzy ids with GT: ${overlap.fuzzyWithGt} (${overlap.scoredCalls} GT calls, ${overlap.scoredServers} servers): the tasks the reference scores`,
    'Images named by the GT (STATS.md §4)',
    `  tasks with an image: ${images.tasksWithImage}; ending in .png: ${images.png}`,
    `  paths "images/<8 digits>.png": ${images.plainPaths}; "./images/<8 digits>.png": ${images.dotPaths}; other: ${list(images.otherPaths.map((entry) => `${entry.image} (task ${entry.id})`))}`,
    `  distinct image names: ${images.distinctNames}; tasks whose image name differs from their id: ${images.nameDiffersFromId.length} (${list(images.nameDiffersFromId.map((entry) => `${entry.id} -> ${entry.image}`))})`,
    'Fuzzy tasks vs GT (STATS.md §7)',
    `  fuzzy ids without GT: ${overlap.fuzzyWithoutGt.length} (${list(overlap.fuzzyWithoutGt)}); GT ids without a fuzzy task: ${overlap.gtWithoutFuzzy}`,
    `  shared ids whose type differs: ${overlap.typeDiffers}; whose image differs: ${overlap.imageDiffers.length} (${list(overlap.imageDiffers)})`,
    'Oddities (STATS.md §8)',
    `  entries with prediction fields (num_step, max_num_concurrent): ${list(oddities.extraFields)}`,
    `  calls without an arguments object: ${oddities.callsWithoutArguments.length} (${list(oddities.callsWithoutArguments)})`,
    `  calls with a recorded result: ${oddities.recordedResults.calls} in ${oddities.recordedResults.tasks.length} task(s) (${list(oddities.recordedResults.tasks.map((task) => `${task.id}: ${task.calls}`))})`,
    `  tasks whose step numbers are not 1, 2, 3, ...: ${list(oddities.oddStepNumbers)}`,
    `  identical calls repeated within a task: ${oddities.repeatedCalls.cases} in ${oddities.repeatedCalls.tasks} task(s)`,
  ];
}

function diskLines(report: DatasetVerifyReport): string[] {
  const { checks, unreferenced } = report.images;
  const describe = (status: 'missing' | 'mistyped' | 'not-image') =>
    imagesWith(checks, status).map((check) => `${check.ref}${check.detected ? ` (bytes say ${check.detected})` : ''}`);
  const lines = [
    `Images on disk (${report.imageDir})`,
    `  named by the task files: ${checks.length}; ok: ${imagesWith(checks, 'ok').length}; missing: ${imagesWith(checks, 'missing').length}; typed differently from their name: ${imagesWith(checks, 'mistyped').length}; not images: ${imagesWith(checks, 'not-image').length}; files no task names: ${unreferenced.length}`,
  ];
  if (checks.length > 0 && imagesWith(checks, 'missing').length === checks.length) {
    lines.push(`  missing: all of them (the images are not bundled: \`m3 dataset pull\` downloads them)`);
  } else {
    for (const status of ['missing', 'mistyped', 'not-image'] as const) {
      const items = describe(status);
      if (items.length > 0) lines.push(`  ${status}: ${list(items)}`);
    }
  }
  const hinted = imagesWith(checks, 'missing').filter((check) => check.hint);
  if (hinted.length > 0) lines.push(`  missing, with a likely intended file: ${list(hinted.map((check) => `${check.ref} (${check.hint})`))}`);
  const { lock } = report;
  if (!lock.present) lines.push(`Lock file: none at ${lock.file} (written by \`m3 dataset pull\`; without it no sha256 is checked)`);
  else {
    const bad = lock.checks.filter((check) => check.status !== 'ok');
    lines.push(
      `Lock file ${lock.file}: ${lock.repo} at ${lock.revision}${lock.commit ? ` (commit ${lock.commit})` : ''}; ${lock.checks.length} file(s), ${lock.checks.length - bad.length} match their sha256`,
    );
    for (const check of bad) lines.push(`  ${check.status} ${check.path} at ${check.file}${check.detail ? `: ${check.detail}` : ''}`);
  }
  return lines;
}

export function formatVerifyReport(report: DatasetVerifyReport): string {
  const verdict = report.passed ? 'dataset check passed' : `dataset check FAILED: ${report.failures.join('; ')}`;
  return [`Task file ${report.tasksFile}`, `GT file   ${report.gtFile}`, ...countLines(report), ...diskLines(report), verdict].join('\n');
}
