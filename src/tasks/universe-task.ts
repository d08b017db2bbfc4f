// An MCP-Universe task file, loaded as that project writes it: one JSON object per file,
//
//   {"category": "general", "question": "What's the weather in San Francisco now?",
//    "mcp_servers": [{"name": "weather"}], "output_format": {"city": "<City>", ...},
//    "evaluators": [{"func": "json -> get(city)", "op": "=", "value": "San Francisco"}]}
//
// It has no id: the task is named by its file name without `.json` (MCP-Universe keys its results
// by the task file too). `mcp_servers` narrows the tools the model is offered for this task
// (src/agent/episode.ts), `output_format` is shown after the question (output-format.ts), and the
// evaluators run through the rule engine (src/eval/rules) from the prediction record, which
// carries them (src/runner/run-task.ts). Fields the seed does not name are kept, not checked.
import path from 'node:path';
import { z } from 'zod';
import { formatIssues } from '../config/zod-issues.js';
import { TaskFileError } from '../errors/index.js';
import { evaluatorSchema, type Evaluator, type OutputFormat, taskCheckFields } from './task-checks.js';

const universeTaskSchema = z
  .object({
    category: z.string().min(1),
    question: z.string().trim().min(1),
    mcp_servers: z.array(z.looseObject({ name: z.string().trim().min(1) })).default([]),
    output_format: taskCheckFields.output_format,
    evaluators: z.array(evaluatorSchema).default([]),
  })
  .loose();

export interface UniverseTask {
  id: string;
  file: string;
  category: string;
  question: string;
  /** Server names from `mcp_servers`, in file order, without repeats. */
  servers: string[];
  outputFormat: OutputFormat | undefined;
  evaluators: Evaluator[];
}

/** A parsed JSON value is an MCP-Universe task when it is one object with a question and no id. */
export function isUniverseTask(raw: unknown): boolean {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return false;
  const record = raw as Record<string, unknown>;
  return typeof record.question === 'string' && !('id' in record) && ('mcp_servers' in record || 'evaluators' in record || 'category' in record);
}

/** Validates a task object read from `file`; errors name the file and the key. */
export function parseUniverseTask(raw: unknown, file: string): UniverseTask {
  const parsed = universeTaskSchema.safeParse(raw);
  if (!parsed.success)
    throw new TaskFileError(`${formatIssues(file, parsed.error.issues)} (an MCP-Universe task: {category, question, mcp_servers, output_format, evaluators})`);
  const task = parsed.data;
  return {
    id: path.basename(file).replace(/\.json$/i, ''),
    file,
    category: task.category,
    question: task.question,
    servers: [...new Set(task.mcp_servers.map((server) => server.name))],
    outputFormat: task.output_format,
    evaluators: task.evaluators,
  };
}
