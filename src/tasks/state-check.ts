// State checks: claims about the final database state of a mock-domain task (servers/email,
// servers/calendar), written in a GT record's `state_checks` and checked after the episode.
// One check counts the rows of a domain's table that match every `where` condition:
//
//   { "db": "email", "where": { "sender": "ann@radar.test", "folder": "inbox", "unread": true }, "count": 1 }
//   { "db": "calendar", "where": { "title": { "contains": "review" }, "start": "2026-03-10T14:00" }, "atLeast": 1 }
//
// `db` names the database and its table (email → mails, calendar → events). A condition is a
// column's exact value (booleans are 1/0) or `{ "contains": text }` (case-insensitive
// substring), `{ "not": value }`, `{ "before": t }` / `{ "after": t }` (string order, which
// is time order for the "YYYY-MM-DDTHH:MM" times the servers store). Exactly one of `count`
// (exact) or `atLeast` is given. Columns: mails(id, folder, sender, recipients, subject, body,
// date, unread), events(id, title, start, end, location, attendees, description); recipients
// and attendees are ", "-joined lists, so test them with `contains`.
import { z } from 'zod';
import { formatIssues } from '../config/zod-issues.js';

export const STATE_TABLES = { email: 'mails', calendar: 'events' } as const;

const scalar = z.union([z.string(), z.number(), z.boolean()]);
const condition = z.union([
  scalar,
  z.object({ contains: z.string().min(1) }).strict(),
  z.object({ not: scalar }).strict(),
  z.object({ before: z.string().min(1) }).strict(),
  z.object({ after: z.string().min(1) }).strict(),
]);

const stateCheckSchema = z
  .object({
    db: z.enum(['email', 'calendar']),
    where: z.record(z.string().regex(/^[a-z_]+$/, 'expected a column name'), condition).default({}),
    count: z.number().int().min(0).optional(),
    atLeast: z.number().int().min(1).optional(),
    note: z.string().optional(),
  })
  .strict()
  .refine((check) => (check.count === undefined) !== (check.atLeast === undefined), { message: 'a state check needs exactly one of "count" or "atLeast"' });

/** The `state_checks` field of a GT record (src/tasks/schemas.ts validates it when the GT is loaded). */
export const stateChecksSchema = z.array(stateCheckSchema).min(1);

export type StateCheck = z.output<typeof stateCheckSchema>;
export type Condition = z.output<typeof condition>;

/** The `state_checks` of a GT record, validated (undefined when it has none). */
export function stateChecksOf(record: Record<string, unknown>, label: string): StateCheck[] | undefined {
  if (record.state_checks === undefined) return undefined;
  const parsed = stateChecksSchema.safeParse(record.state_checks);
  if (!parsed.success) throw new Error(formatIssues(`${label} state_checks`, parsed.error.issues));
  return parsed.data;
}

function describeCondition(column: string, value: Condition): string {
  if (typeof value !== 'object') return `${column} = ${JSON.stringify(value)}`;
  if ('contains' in value) return `${column} contains ${JSON.stringify(value.contains)}`;
  if ('not' in value) return `${column} != ${JSON.stringify(value.not)}`;
  if ('before' in value) return `${column} < ${JSON.stringify(value.before)}`;
  return `${column} > ${JSON.stringify(value.after)}`;
}

export function describeStateCheck(check: StateCheck): string {
  const where = Object.entries(check.where).map(([column, value]) => describeCondition(column, value));
  const amount = check.count !== undefined ? `exactly ${check.count}` : `at least ${check.atLeast}`;
  return `${amount} ${STATE_TABLES[check.db]} row(s)${where.length > 0 ? ` where ${where.join(' and ')}` : ''}`;
}
