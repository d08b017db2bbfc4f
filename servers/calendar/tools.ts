// Calendar tools over the task's calendar database (events.ts): create, list, update, delete.
// Creating or moving an event onto a busy time is refused with the conflicting events unless
// allow_conflict is true; then the event is booked and the conflicts are reported.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { localTime } from '../shared/radar-seed.js';
import { taskDatabase } from '../shared/task-database.js';
import { guarded, jsonResult } from '../shared/tool-result.js';
import { calendarDatabase, checkOrder, conflictError, eventById, eventView, overlapping, type EventRow } from './events.js';

const eventId = z.number().int().min(1);
const attendees = z.array(z.string().regex(/^[^\s@]+@[^\s@]+$/, 'expected an email address'));
const allowConflict = z.boolean().optional().describe('book even if the time overlaps other events (default false: refuse)');

export function registerCalendarTools(server: McpServer): void {
  server.registerTool(
    'create_event',
    {
      description: 'Create a calendar event. Times are local "YYYY-MM-DDTHH:MM". Refused when it overlaps an existing event unless allow_conflict is true.',
      inputSchema: {
        title: z.string().min(1),
        start: localTime,
        end: localTime,
        location: z.string().optional(),
        attendees: attendees.optional(),
        description: z.string().optional(),
        allow_conflict: allowConflict,
      },
    },
    (args, extra) =>
      guarded(async () => {
        checkOrder(args.start, args.end);
        const db = taskDatabase(extra, calendarDatabase);
        const conflicts = overlapping(db, args.start, args.end);
        if (conflicts.length > 0 && args.allow_conflict !== true) throw conflictError(conflicts);
        const info = db
          .prepare('INSERT INTO events (title, start, end, location, attendees, description) VALUES (?, ?, ?, ?, ?, ?)')
          .run(args.title, args.start, args.end, args.location ?? '', (args.attendees ?? []).join(', '), args.description ?? '');
        const created = eventById(db, Number(info.lastInsertRowid));
        return jsonResult({ status: 'created', event: eventView(created), conflicts: conflicts.map(eventView) });
      }),
  );
  server.registerTool(
    'list_events',
    {
      description: 'List events overlapping a time range (both ends optional), earliest first.',
      inputSchema: { start: localTime.optional(), end: localTime.optional() },
    },
    (args, extra) =>
      guarded(async () => {
        const db = taskDatabase(extra, calendarDatabase);
        const rows = db.prepare('SELECT * FROM events WHERE end > ? AND start < ? ORDER BY start, id').all(args.start ?? '', args.end ?? '9999') as EventRow[];
        return jsonResult({ count: rows.length, events: rows.map(eventView) });
      }),
  );
  registerChangeTools(server);
}

function registerChangeTools(server: McpServer): void {
  server.registerTool(
    'update_event',
    {
      description: 'Change fields of an event (only the ones given). A new time is refused when it overlaps another event unless allow_conflict is true.',
      inputSchema: {
        id: eventId,
        title: z.string().min(1).optional(),
        start: localTime.optional(),
        end: localTime.optional(),
        location: z.string().optional(),
        attendees: attendees.optional(),
        description: z.string().optional(),
        allow_conflict: allowConflict,
      },
    },
    (args, extra) =>
      guarded(async () => {
        const db = taskDatabase(extra, calendarDatabase);
        const old = eventById(db, args.id);
        const next: EventRow = {
          ...old,
          title: args.title ?? old.title,
          start: args.start ?? old.start,
          end: args.end ?? old.end,
          location: args.location ?? old.location,
          attendees: args.attendees ? args.attendees.join(', ') : old.attendees,
          description: args.description ?? old.description,
        };
        checkOrder(next.start, next.end);
        const conflicts = overlapping(db, next.start, next.end, next.id);
        if (conflicts.length > 0 && args.allow_conflict !== true) throw conflictError(conflicts);
        db.prepare('UPDATE events SET title = ?, start = ?, end = ?, location = ?, attendees = ?, description = ? WHERE id = ?').run(
          next.title,
          next.start,
          next.end,
          next.location,
          next.attendees,
          next.description,
          next.id,
        );
        return jsonResult({ status: 'updated', event: eventView(next), conflicts: conflicts.map(eventView) });
      }),
  );
  server.registerTool('delete_event', { description: 'Delete a calendar event.', inputSchema: { id: eventId } }, (args, extra) =>
    guarded(async () => {
      const db = taskDatabase(extra, calendarDatabase);
      const row = eventById(db, args.id);
      db.prepare('DELETE FROM events WHERE id = ?').run(args.id);
      return jsonResult({ status: 'deleted', event: eventView(row) });
    }),
  );
}
