// The calendar server's database: tables, seeding, conflict lookup and the event view.
// Times are local "YYYY-MM-DDTHH:MM" strings, so string order is time order.
import type { Db, TaskDatabaseSpec } from '../shared/task-database.js';
import type { TaskSeed } from '../shared/radar-seed.js';

export const calendarDatabase: TaskDatabaseSpec = {
  name: 'calendar',
  schema: `
    CREATE TABLE events (
      id INTEGER PRIMARY KEY,
      title TEXT NOT NULL,
      start TEXT NOT NULL,
      end TEXT NOT NULL,
      location TEXT NOT NULL,
      attendees TEXT NOT NULL,
      description TEXT NOT NULL
    );`,
  seed: (db: Db, seed: TaskSeed) => {
    const insert = db.prepare('INSERT INTO events (title, start, end, location, attendees, description) VALUES (?, ?, ?, ?, ?, ?)');
    for (const event of seed.events) insert.run(event.title, event.start, event.end, event.location, event.attendees.join(', '), event.description);
  },
};

export interface EventRow {
  id: number;
  title: string;
  start: string;
  end: string;
  location: string;
  attendees: string;
  description: string;
}

export function eventView(row: EventRow): Record<string, unknown> {
  return {
    id: row.id,
    title: row.title,
    start: row.start,
    end: row.end,
    location: row.location,
    attendees: row.attendees.split(', ').filter(Boolean),
    description: row.description,
  };
}

export function eventById(db: Db, id: number): EventRow {
  const row = db.prepare('SELECT * FROM events WHERE id = ?').get(id) as EventRow | undefined;
  if (!row) throw new Error(`no event with id ${id} (list_events shows the ids)`);
  return row;
}

/** Events overlapping [start, end) (touching ends do not overlap), other than `except`. */
export function overlapping(db: Db, start: string, end: string, except?: number): EventRow[] {
  return db.prepare('SELECT * FROM events WHERE start < ? AND end > ? AND id != ? ORDER BY start, id').all(end, start, except ?? 0) as EventRow[];
}

/**
 * A conflict refusal: the call fails and names the overlapping events, so the agent can pick
 * another time or pass allow_conflict: true to double-book on purpose.
 */
export function conflictError(conflicts: readonly EventRow[]): Error {
  const list = conflicts.map((row) => `#${row.id} "${row.title}" ${row.start}–${row.end}`).join('; ');
  return new Error(`conflict: the time overlaps ${list}. Choose a free time, or pass allow_conflict: true to book it anyway`);
}

export function checkOrder(start: string, end: string): void {
  if (end <= start) throw new Error(`end (${end}) must be after start (${start})`);
}
