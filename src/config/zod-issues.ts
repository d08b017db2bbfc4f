import type { z } from 'zod';

/** Renders zod issues as `file: at $.path: message` lines, the form every config error uses. */
export function formatIssues(file: string, issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => {
      const jsonPath = ['$', ...issue.path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`))].join('').replace(/\.\[/g, '[');
      return `${file}: at ${jsonPath}: ${issue.message}`;
    })
    .join('\n');
}
