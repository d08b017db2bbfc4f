// Canonical `server/tool` names → provider-safe function names (`[A-Za-z_][A-Za-z0-9_-]{0,63}`) and
// back. Providers reject slashes, dots, spaces and long names, and Gemini also a name that does not
// start with a letter or an underscore ("Invalid function name. Must start with a letter or an
// underscore"), so one rule serves every vendor; the ground truth and predictions keep
// the canonical name, so the mapping must be reversible and stable across runs: a name's
// function name depends only on the name itself and on which other names it collides with.
import { createHash } from 'node:crypto';

/** @internal Exported for its tests. */
export const maxFunctionNameLength = 64;
const hashLength = 8;

/**
 * `server/tool` → `server__tool`, every character outside `[A-Za-z0-9_-]` replaced by `_`, and a
 * `_` put in front of a name that would start with a digit or `-` (`3d/scan` → `_3d__scan`).
 */
export function toBaseFunctionName(canonical: string): string {
  const slash = canonical.indexOf('/');
  const joined = slash < 0 ? canonical : `${canonical.slice(0, slash)}__${canonical.slice(slash + 1)}`;
  // Iterate by code point so one emoji or CJK character becomes one `_`, not two.
  const safe = Array.from(joined, (char) => (/^[A-Za-z0-9_-]$/.test(char) ? char : '_')).join('');
  return /^[A-Za-z_]/.test(safe) ? safe : `_${safe}`;
}

function shortHash(text: string, length: number): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, length);
}

function withHash(base: string, canonical: string, length: number): string {
  const keep = maxFunctionNameLength - length - 1;
  return `${base.slice(0, keep)}_${shortHash(canonical, length)}`;
}

export class FunctionNameTable {
  private readonly toFunction = new Map<string, string>();
  private readonly toCanonical = new Map<string, string>();

  /** Builds the table for a whole catalog at once, so collisions are seen and resolved together. */
  constructor(canonicalNames: Iterable<string>) {
    const unique = [...new Set(canonicalNames)];
    const bases = new Map(unique.map((name) => [name, toBaseFunctionName(name)]));
    const baseCounts = new Map<string, number>();
    for (const base of bases.values()) baseCounts.set(base, (baseCounts.get(base) ?? 0) + 1);

    const assigned = new Map<string, string>();
    for (const name of unique) {
      const base = bases.get(name) ?? '_';
      const needsHash = base.length > maxFunctionNameLength || (baseCounts.get(base) ?? 0) > 1;
      assigned.set(name, needsHash ? withHash(base, name, hashLength) : base);
    }
    this.resolveResidualClashes(assigned, bases);
    for (const [name, functionName] of assigned) {
      this.toFunction.set(name, functionName);
      this.toCanonical.set(functionName, name);
    }
  }

  /**
   * A hashed name could, in theory, equal another tool's plain name or another hash prefix;
   * lengthen the hash of every name still involved in a clash until all are unique.
   */
  private resolveResidualClashes(assigned: Map<string, string>, bases: Map<string, string>): void {
    for (let length = hashLength + 4; ; length += 4) {
      const owners = new Map<string, string[]>();
      for (const [name, functionName] of assigned) owners.set(functionName, [...(owners.get(functionName) ?? []), name]);
      const clashing = [...owners.values()].filter((names) => names.length > 1).flat();
      if (clashing.length === 0) return;
      if (length > 40) throw new Error(`cannot build unique function names for: ${clashing.join(', ')}`);
      for (const name of clashing) assigned.set(name, withHash(bases.get(name) ?? '_', name, length));
    }
  }

  functionNameOf(canonical: string): string | undefined {
    return this.toFunction.get(canonical);
  }

  canonicalOf(functionName: string): string | undefined {
    return this.toCanonical.get(functionName);
  }

  entries(): Array<{ canonical: string; functionName: string }> {
    return [...this.toFunction].map(([canonical, functionName]) => ({ canonical, functionName }));
  }
}

/** @internal Exported for its tests. */
export function isValidFunctionName(name: string): boolean {
  return name.length >= 1 && name.length <= maxFunctionNameLength && /^[A-Za-z_][A-Za-z0-9_-]*$/.test(name);
}
