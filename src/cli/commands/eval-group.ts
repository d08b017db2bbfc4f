// The shared `m3 eval` parent command: `eval step`, `eval call` and `eval final` each attach to
// the one instance, whichever registers first creates it; `eval cv` is attached when the group
// is created.
import type { Command } from 'commander';
import { addEvalCvCommand } from './eval-cv.js';

export function getOrCreateEvalCommand(program: Command): Command {
  const existing = program.commands.find((command) => command.name() === 'eval');
  if (existing) return existing;
  const group = program.command('eval').description('evaluate predictions: step-level alignment, call-level classification, final answers, CV metrics');
  addEvalCvCommand(group);
  return group;
}
