// The shared `m3 eval` parent command: `eval step`, `eval call` and `eval final` each attach to
// the one instance, whichever registers first creates it.
import type { Command } from 'commander';

export function getOrCreateEvalCommand(program: Command): Command {
  const existing = program.commands.find((command) => command.name() === 'eval');
  if (existing) return existing;
  return program.command('eval').description('evaluate predictions: step-level alignment, call-level classification, final answers');
}
