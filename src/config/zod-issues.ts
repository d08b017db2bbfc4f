// Renders zod issues as `file: at $.path: message` lines, the form every config and task-file
// error uses. zod's defaults are rewritten so each line says what was expected and what was
// found. zod's own messages do for most issues ("Invalid input: expected string, received
// number"); a union (`"image": 3` where a string or a list of strings is allowed) only says
// "Invalid input", so it is rewritten from its branches: "Invalid input: expected string or
// array, received number", or the inner problems of the branch whose shape the value had.
import type { z } from 'zod';

type Issue = z.core.$ZodIssue;

function jsonPathOf(path: readonly PropertyKey[]): string {
  return ['$', ...path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`))].join('').replace(/\.\[/g, '[');
}

/** A union's branches all refused the value's type: name every type they would take. */
function describeUnion(branches: readonly (readonly Issue[])[]): string | undefined {
  const firsts = branches.map((branch) => branch[0]);
  if (!firsts.every((issue) => issue?.code === 'invalid_type' && issue.path.length === 0)) return undefined;
  const expected = [...new Set(firsts.map((issue) => (issue as z.core.$ZodIssueInvalidType).expected))];
  const received = /received (\S+)/.exec(firsts[0]?.message ?? '')?.[1];
  return `Invalid input: expected ${expected.join(' or ')}${received ? `, received ${received}` : ''}`;
}

/** Flattens one issue into (path, message) pairs; a union whose value had the right shape reports that branch's inner problems. */
function flatten(issue: Issue, prefix: readonly PropertyKey[]): Array<{ path: PropertyKey[]; message: string }> {
  const path = [...prefix, ...issue.path];
  if (issue.code === 'invalid_union' && 'errors' in issue && issue.errors.length > 0) {
    const summary = describeUnion(issue.errors);
    if (summary) return [{ path, message: summary }];
    // The branch that got furthest (its issues lie inside the value) is the one the author meant.
    const inner = [...issue.errors].sort((a, b) => Math.max(...b.map((i) => i.path.length)) - Math.max(...a.map((i) => i.path.length)))[0] ?? [];
    if (inner.length > 0) return inner.flatMap((branchIssue) => flatten(branchIssue, path));
  }
  return [{ path, message: issue.message }];
}

export function formatIssues(file: string, issues: readonly Issue[]): string {
  return issues
    .flatMap((issue) => flatten(issue, []))
    .map(({ path, message }) => `${file}: at ${jsonPathOf(path)}: ${message}`)
    .join('\n');
}
