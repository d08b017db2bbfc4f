// A task's `output_format` (src/tasks/task-checks.ts) as words the model sees after the question,
// so the rule evaluators and precise answers that read the final answer ask for something the
// model was told: a text format is quoted as given, a JSON template is shown as JSON with its
// `<...>` placeholders to fill in.
import type { OutputFormat } from './task-checks.js';

export function withOutputFormat(question: string, format: OutputFormat | undefined): string {
  if (format === undefined) return question;
  const instruction =
    typeof format === 'string'
      ? `Format of the final answer: ${format}`
      : `Give the final answer as JSON of this shape, replacing each <...> placeholder: ${JSON.stringify(format)}`;
  return `${question.trimEnd()}\n\n${instruction}`;
}
