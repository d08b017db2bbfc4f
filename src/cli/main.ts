#!/usr/bin/env node
// The `m3` command. Each sub-command lives in its own file under commands/ and only parses
// options, calls into the library and prints; logs and progress go to stderr, results to stdout.
import { M3Error } from '../errors/index.js';
import { buildProgram } from './program.js';

const program = buildProgram();
program.parseAsync(process.argv).catch((error: unknown) => {
  if (error instanceof M3Error) {
    process.stderr.write(`m3: ${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`m3: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
