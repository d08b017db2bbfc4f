// The commander Command every `m3` command and sub-command is made of (createCommand makes the
// sub-commands of the same class): a usage error is one line on stderr and exit status 2 (bad
// input, as `m3 --help` says), never the whole help; an unknown option names the nearest valid
// option of that command (its parents' included), however far it is.
import { Command } from 'commander';

/** Edit distance (insertions, deletions, substitutions, adjacent swaps). */
function distance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const row = rows[i] as number[];
      const above = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j] as number, ((rows[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (rows[a.length] as number[])[b.length] as number;
}

/**
 * The candidate closest to `flag` (ties: the first); undefined when there is none.
 * @internal Exported for its tests.
 */
export function nearestOption(flag: string, candidates: readonly string[]): string | undefined {
  const bare = flag.split('=')[0] ?? flag;
  let best: { option: string; score: number } | undefined;
  for (const option of candidates) {
    // A flag that is a prefix of an option (or the reverse) is nearer than any edit.
    const score = option.startsWith(bare) || bare.startsWith(option) ? 0.5 : distance(bare, option);
    if (!best || score < best.score) best = { option, score };
  }
  return best?.option;
}

function commandPath(command: Command): string {
  const names: string[] = [];
  for (let current: Command | null = command; current; current = current.parent) names.unshift(current.name());
  return names.join(' ');
}

export class M3Command extends Command {
  override createCommand(name?: string): M3Command {
    return new M3Command(name);
  }

  /** A usage error: one line, exit status 2 unless the caller chose another. */
  override error(message: string, errorOptions?: { code?: string; exitCode?: number }): never {
    const line = message
      .replace(/^error: /, '')
      .replace(/\s*\n\s*/g, ' ')
      .trim();
    return super.error(`${commandPath(this)}: ${line}`, { ...errorOptions, exitCode: errorOptions?.exitCode ?? 2 });
  }

  /** Called by commander for an option this command does not know (see the file header). */
  unknownOption(flag: string): never {
    const candidates: string[] = ['--help'];
    for (let command: Command | null = this; command; command = command.parent) {
      for (const option of command.options) if (option.long && !option.hidden) candidates.push(option.long);
    }
    const nearest = nearestOption(flag, candidates);
    const hint = nearest ? `; the nearest valid option is ${nearest}` : '';
    return this.error(`unknown option '${flag}'${hint} (${commandPath(this)} --help lists them)`, { code: 'commander.unknownOption' });
  }
}
