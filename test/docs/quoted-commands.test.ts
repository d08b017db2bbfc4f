// Every m3 command README.md and docs/running.md quote (in code blocks and inline code: `m3 ...`,
// `npx tsx src/cli/main.ts ...`, `npm run m3 -- ...`) names a command that exists and only options
// that command (or its parents) declares; a quoted command without placeholders parses as written
// (commander with the actions replaced, so nothing runs). The program is the CLI's own
// (src/cli/program.ts), with every command loaded; and each command as the CLI loads it alone (only
// the module its name selects) has the same sub-commands, options and help as in the full program.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { repoRoot } from '../support/shared-assets.js';

const prefixes = [/^m3 /, /^npx tsx src\/cli\/main\.ts /, /^npm run m3 -- /, /^node dist\/cli\/main\.js /];

/** Command lines in fenced blocks (continuations joined) and in inline code spans. */
function quotedCommands(file: string): string[] {
  const text = readFileSync(path.join(repoRoot, file), 'utf8');
  const found: string[] = [];
  for (const block of text.matchAll(/```[a-z]*\n([\s\S]*?)```/g)) {
    const joined = (block[1] ?? '').replace(/\\\n\s*/g, ' ');
    for (const raw of joined.split('\n')) found.push(raw.trim().replace(/^\$ /, ''));
  }
  const prose = text.replace(/```[a-z]*\n[\s\S]*?```/g, '');
  for (const span of prose.matchAll(/`([^`\n]+)`/g)) found.push((span[1] ?? '').trim());
  return found
    .map((line) => line.replace(/^(?:[A-Z_][A-Z0-9_]*=\S+ )+/, ''))
    .filter((line) => prefixes.some((prefix) => prefix.test(line)))
    .map((line) => line.split(/\s+(?:\||&&|;|>|2>|#)\s*/)[0] ?? line);
}

function argsOf(line: string): string[] {
  const prefix = prefixes.find((entry) => entry.test(line));
  return (prefix ? line.replace(prefix, '') : line).split(/\s+/).filter(Boolean);
}

/** The deepest sub-command the leading words name, and the words used to reach it. */
function commandOf(program: Command, args: readonly string[]): { command: Command; path: string[] } {
  let command = program;
  const names: string[] = [];
  for (const word of args) {
    const next = command.commands.find((entry) => entry.name() === word || entry.aliases().includes(word));
    if (!next) break;
    command = next;
    names.push(word);
  }
  return { command, path: names };
}

function knownLongOptions(command: Command): Set<string> {
  const known = new Set(['--help', '--version']);
  for (let current: Command | null = command; current; current = current.parent)
    for (const option of current.options) {
      if (option.long) known.add(option.long);
      if (option.negate && option.long) known.add(option.long);
    }
  return known;
}

const files = ['README.md', 'docs/running.md'];

describe('commands quoted in the README and docs/running.md', () => {
  // Every command (no command line: program.ts loads them all).
  let program: Command;
  beforeAll(async () => {
    program = await buildProgram();
  }, 120_000);
  for (const file of files) {
    const lines = quotedCommands(file);
    it(`${file}: every quoted command exists and names only options it has (${lines.length} quoted)`, () => {
      expect(lines.length).toBeGreaterThan(5);
      for (const line of lines) {
        const args = argsOf(line);
        if (args[0]?.startsWith('<')) continue; // `m3 <command>`: the pattern, not a command
        const { command, path: names } = commandOf(program, args);
        if (!args[0]?.startsWith('--')) expect(names.length, `${file}: "${line}" names no m3 command`).toBeGreaterThan(0);
        // `eval step\|call\|cv` (a table cell): each alternative must be a sub-command.
        const alternatives = args[names.length]?.includes('|') ? args[names.length]?.replaceAll('\\', '').split('|') : undefined;
        if (alternatives) {
          for (const name of alternatives)
            expect(
              command.commands.map((entry) => entry.name()),
              `${file}: "${line}"`,
            ).toContain(name);
          continue;
        }
        // A span of command words alone (`m3 runs`) names a command; anything more is an invocation.
        if (command.commands.length > 0 && args.length > names.length && !args.includes('--help') && !args[names.length]?.startsWith('-'))
          expect(
            command.commands.map((entry) => entry.name()),
            `${file}: "${line}" needs a sub-command`,
          ).toContain(args[names.length]);
        const known = knownLongOptions(command);
        for (const option of line.matchAll(/(?<=^|[\s[(])--[a-z][a-z0-9-]*/g)) expect(known, `${file}: "${line}" uses ${option[0]}`).toContain(option[0]);
      }
    });
  }

  it('each command loaded alone (as `m3 <command>` loads it) is the command of the full program', async () => {
    const helpOf = (command: Command): string[] => [command.helpInformation(), ...command.commands.flatMap(helpOf)];
    expect(program.commands.length).toBeGreaterThan(20);
    for (const command of program.commands) {
      const loaded = (await buildProgram([command.name()])).commands;
      // Fewer than all: the name selects its module (an unknown name loads every command).
      expect(loaded.length, `m3 ${command.name()} loads only its own module`).toBeLessThan(program.commands.length);
      const alone = loaded.find((entry) => entry.name() === command.name());
      expect(alone, `m3 ${command.name()} loads the module that registers it`).toBeDefined();
      expect(helpOf(alone as Command)).toEqual(helpOf(command));
    }
  });

  it('a quoted command without placeholders parses as written', async () => {
    const concrete = files
      .flatMap(quotedCommands)
      .filter((line) => !/[<[\]…$*{|]|\.\.\./.test(line) && argsOf(line).length > commandOf(program, argsOf(line)).path.length);
    expect(concrete.length).toBeGreaterThan(5);
    for (const line of concrete) {
      const args = argsOf(line).map((word) => word.replace(/^(['"])(.*)\1$/, '$2'));
      // The program the CLI builds for this command line: only the modules it names.
      const parser = await buildProgram(args);
      const quiet = (command: Command): void => {
        command.exitOverride().configureOutput({ writeOut: () => {}, writeErr: () => {} });
        if (command.commands.length === 0) command.action(() => {});
        for (const child of command.commands) quiet(child);
      };
      quiet(parser);
      try {
        await parser.parseAsync(args, { from: 'user' });
      } catch (error) {
        // --help and --version end the parse on purpose.
        const code = (error as { code?: string }).code;
        if (code !== 'commander.helpDisplayed' && code !== 'commander.version' && code !== 'commander.help')
          throw new Error(`"${line}" does not parse: ${(error as Error).message}`);
      }
    }
  });
});
