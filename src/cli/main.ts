#!/usr/bin/env node
// The `m3` command. Each sub-command lives in its own file under commands/ and only parses
// options, calls into the library and prints; logs and progress go to stderr, results to stdout.
// The program registers only the command(s) the command line names (program.ts).
import { cliFailureOf } from './exit-status.js';
import { buildProgram } from './program.js';

buildProgram(process.argv.slice(2))
  .then((program) => program.parseAsync(process.argv))
  .catch((error: unknown) => {
    const failure = cliFailureOf(error);
    process.stderr.write(failure.message);
    process.exit(failure.status);
  });
