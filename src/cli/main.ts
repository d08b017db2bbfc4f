#!/usr/bin/env node
// The `m3` command. Each sub-command lives in its own file under commands/ and only parses
// options, calls into the library and prints; logs and progress go to stderr, results to stdout.
import { cliFailureOf } from './exit-status.js';
import { buildProgram } from './program.js';

const program = buildProgram();
program.parseAsync(process.argv).catch((error: unknown) => {
  const failure = cliFailureOf(error);
  process.stderr.write(failure.message);
  process.exit(failure.status);
});
