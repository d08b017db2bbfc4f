// `m3 runs export <run-id>`: a stored run as OpenTelemetry traces (OTLP/HTTP or an OTLP JSON
// file) and as an inspect_ai eval log (src/export/). The exporters, the OpenTelemetry SDK among
// them, are imported by the action: `m3 runs list` and the other `runs` commands never need them.
import type { Command } from 'commander';

interface ExportFlags {
  store: string;
  otlp?: string;
  otlpFile?: string;
  inspect?: string;
  resultsDir: string;
}

export function registerRunsExportCommand(runs: Command): void {
  runs
    .command('export')
    .description('export one stored run: OpenTelemetry traces (one per episode, GenAI semantic conventions) to a collector or a file; an inspect_ai eval log')
    .argument('<run-id>', 'the full run id (as m3 runs list prints it)')
    .option('--store <file>', 'run store', 'results/m3bench.sqlite')
    .option('--otlp <url>', 'send the traces over OTLP/HTTP (JSON) to this collector (http://host:4318 gets /v1/traces)')
    .option('--otlp-file <file>', 'write the traces as one OTLP JSON ExportTraceServiceRequest')
    .option('--inspect <file>', 'write an inspect_ai eval log (.json) that `inspect view` opens: one sample per task and trial')
    .option('--results-dir <dir>', "results folder holding the run's evaluation outputs (the inspect log's scores)", 'results')
    .action(async (runId: string, flags: ExportFlags) => {
      const { exportRun } = await import('../../export/run-export.js');
      const lines = await exportRun({
        storeFile: flags.store,
        runId,
        ...(flags.otlp ? { otlp: flags.otlp } : {}),
        ...(flags.otlpFile ? { otlpFile: flags.otlpFile } : {}),
        ...(flags.inspect ? { inspect: flags.inspect } : {}),
        resultsDir: flags.resultsDir,
      });
      process.stdout.write(`${lines.join('\n')}\n`);
    });
}
