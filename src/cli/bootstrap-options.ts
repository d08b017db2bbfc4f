// The bootstrap flags every statistics command takes (m3 summary, compare, gate, trends), so an
// interval can be reproduced from the command line that printed it.
import type { Command } from 'commander';
import { defaultBootstrap, type BootstrapSettings } from '../stats/bootstrap.js';
import { nonNegativeInteger, positiveInteger } from './option-parsers.js';

export interface BootstrapFlags {
  bootstrapSeed: number;
  resamples: number;
}

export function addBootstrapOptions(command: Command): Command {
  return command
    .option('--bootstrap-seed <n>', 'seed of the bootstrap resampling (stated in the output)', nonNegativeInteger, defaultBootstrap.seed)
    .option('--resamples <n>', 'bootstrap replicates', positiveInteger, defaultBootstrap.resamples);
}

export function bootstrapSettings(flags: BootstrapFlags): BootstrapSettings {
  return { ...defaultBootstrap, seed: flags.bootstrapSeed, resamples: flags.resamples };
}
