// `m3 eval batch`: the step layer over every trial file of a batch (what `m3 summary`, compare,
// gate and trends read), each into `<results>/<trial label>/` like `m3 eval step --output-dir`,
// with the default offline embedder and thresholds.
import path from 'node:path';
import type { Command } from 'commander';
import { createEmbedder, DEFAULT_EMBEDDER } from '../../eval/embed/registry.js';
import { runStepFiles } from '../../eval/step/run.js';
import { log } from '../../log/logger.js';
import { batchPath, loadBatchManifest } from '../../runner/batch-manifest.js';
import { evaluationInputsFor, stampEvaluationInputs } from '../../results/evaluation-inputs.js';
import { assertTrialOfBatch, resolveBatchFile } from '../../stats/batch-results.js';
import { GRADER_VERSIONS } from '../../results/grader-versions.js';
import { OUTPUT_FILES } from '../../eval/step/outputs.js';
import { getOrCreateEvalCommand } from './eval-group.js';

export function registerEvalBatchCommand(program: Command): void {
  getOrCreateEvalCommand(program)
    .command('batch <batch>')
    .description('step-level evaluation of every trial of a batch (<batch.json> or a results folder: its newest batch) into <results>/<trial label>/')
    .option('--gt <file>', 'ground-truth file (default: the one the batch was run with)')
    .option('--embedder <spec>', `similarity embedder (see m3 eval step --help)`, DEFAULT_EMBEDDER)
    .action(async (target: string, flags: { gt?: string; embedder: string }) => {
      const file = resolveBatchFile(target);
      const manifest = loadBatchManifest(file);
      const gtFile = path.resolve(flags.gt ?? manifest.gtFile ?? manifest.tasksFile);
      const embedder = createEmbedder(flags.embedder);
      const written: string[] = [];
      for (const cell of manifest.cells) for (const trial of cell.trials) assertTrialOfBatch(file, manifest.batchId, cell, trial);
      for (const cell of manifest.cells) {
        for (const trial of cell.trials) {
          const outputDir = path.join(path.dirname(file), trial.label);
          const predFile = batchPath(file, trial.predictions);
          const result = await runStepFiles({
            gtFile,
            predFile,
            outputDir,
            embedder,
            mode: 'default',
            thresholds: { tauStrong: 0.8, tauWeak: 0.6 },
            warn: (message) => log.warn(message),
          });
          // What it evaluated (run id, prediction and GT sha256), so compare, gate, trends and summary can check it.
          stampEvaluationInputs(
            path.join(outputDir, OUTPUT_FILES.results),
            evaluationInputsFor({ predFile, gtFile, layer: 'step', graderVersion: GRADER_VERSIONS.step, encoder: result.embedder.id }),
            predFile,
          );
          log.info(`${trial.label}: recall ${result.evaluation.aggregate.recall.toFixed(3)} -> ${path.relative(process.cwd(), outputDir)}`);
          written.push(outputDir);
        }
      }
      process.stdout.write(`${JSON.stringify({ batch: file, evaluated: written })}\n`);
    });
}
