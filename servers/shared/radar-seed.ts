// Initial state of the mock email and calendar domains (the MCP-RADAR style tasks in
// json/m3_radar_GT.json). A seeds file maps task ids to a mailbox and its calendar:
//
//   { "R0001": { "mailbox": "me@radar.test",
//                "mails":  [{ "from": "ann@radar.test", "to": ["me@radar.test"], "subject": "...",
//                             "body": "...", "date": "2026-03-02T09:15", "folder": "inbox", "unread": true }],
//                "events": [{ "title": "Standup", "start": "2026-03-10T09:00", "end": "2026-03-10T09:15",
//                             "location": "Room 1", "attendees": ["ann@radar.test"] }] } }
//
// The file is named by M3_RADAR_SEEDS (mcp_servers.json sets json/m3_radar_seeds.json). A
// server loads the seed of a task on that task's first call, when it creates the task's
// database; a task without an entry starts empty. Invalid seeds fail the call with the field.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { formatIssues } from '../../src/config/zod-issues.js';

/** Local time to the minute, so stored times compare as strings. */
export const localTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, 'expected a local time "YYYY-MM-DDTHH:MM"');
const address = z.string().regex(/^[^\s@]+@[^\s@]+$/, 'expected an email address');

const seedMailSchema = z
  .object({
    from: address,
    to: z.array(address).min(1),
    subject: z.string(),
    body: z.string().default(''),
    date: localTime,
    folder: z.enum(['inbox', 'sent', 'archive', 'trash']).default('inbox'),
    unread: z.boolean().default(true),
  })
  .strict();

const seedEventSchema = z
  .object({
    title: z.string().min(1),
    start: localTime,
    end: localTime,
    location: z.string().default(''),
    attendees: z.array(address).default([]),
    description: z.string().default(''),
  })
  .strict()
  .refine((event) => event.end > event.start, { message: 'end must be after start', path: ['end'] });

const taskSeedSchema = z
  .object({
    mailbox: address.default('me@radar.test'),
    mails: z.array(seedMailSchema).default([]),
    events: z.array(seedEventSchema).default([]),
  })
  .strict();

export type TaskSeed = z.output<typeof taskSeedSchema>;

/**
 * The seed of one task from a seeds document, validated; only that task's entry is checked, so
 * one broken entry fails its own task, not the others. The error names the file, task and field.
 */
function seedFromDocument(document: unknown, taskId: string, file: string): TaskSeed {
  if (typeof document !== 'object' || document === null || Array.isArray(document))
    throw new Error(`invalid seeds file: ${file}: expected an object of task id → seed`);
  const parsed = taskSeedSchema.safeParse((document as Record<string, unknown>)[taskId] ?? {});
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => ({ ...issue, path: [taskId, ...issue.path] }));
  throw new Error(`invalid seeds file: ${formatIssues(file, issues)}`);
}

/** The seed of one task from the file M3_RADAR_SEEDS names (read for every new task, so edits apply). */
export function seedOfTask(taskId: string, env: NodeJS.ProcessEnv = process.env): TaskSeed {
  const file = env.M3_RADAR_SEEDS?.trim();
  if (!file) return taskSeedSchema.parse({});
  let text: string;
  try {
    text = readFileSync(path.resolve(file), 'utf8');
  } catch (error) {
    throw new Error(`seeds file ${file} (M3_RADAR_SEEDS) cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new Error(`seeds file ${file} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  return seedFromDocument(document, taskId, file);
}
