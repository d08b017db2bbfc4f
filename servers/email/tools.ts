// Email tools over the task's mailbox database (mailbox.ts): send, list, search, read, mark,
// delete. Ids are the database's mail ids; list and search show them.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { taskDatabase } from '../shared/task-database.js';
import { guarded, jsonResult } from '../shared/tool-result.js';
import { emailDatabase, mailById, mailboxOf, mailView, nowLocal, type MailRow } from './mailbox.js';

const folder = z.enum(['inbox', 'sent', 'archive', 'trash']);
const mailId = z.number().int().min(1);
const limit = z.number().int().min(1).max(100).optional();

export function registerEmailTools(server: McpServer): void {
  server.registerTool(
    'send_email',
    {
      description: 'Send an email from the user\'s mailbox. It is stored in the "sent" folder.',
      inputSchema: { to: z.array(z.string().regex(/^[^\s@]+@[^\s@]+$/, 'expected an email address')).min(1), subject: z.string().min(1), body: z.string() },
    },
    (args, extra) =>
      guarded(async () => {
        const db = taskDatabase(extra, emailDatabase);
        const info = db
          .prepare("INSERT INTO mails (folder, sender, recipients, subject, body, date, unread) VALUES ('sent', ?, ?, ?, ?, ?, 0)")
          .run(mailboxOf(db), args.to.join(', '), args.subject, args.body, nowLocal());
        return jsonResult({ status: 'sent', id: Number(info.lastInsertRowid), to: args.to, subject: args.subject });
      }),
  );
  server.registerTool(
    'list_emails',
    {
      description: 'List emails in a folder (default inbox), newest first. Filters: unread (true/false), from (part of the sender address).',
      inputSchema: { folder: folder.optional(), unread: z.boolean().optional(), from: z.string().min(1).optional(), limit },
    },
    (args, extra) =>
      guarded(async () => {
        const db = taskDatabase(extra, emailDatabase);
        const where = ['folder = ?'];
        const params: unknown[] = [args.folder ?? 'inbox'];
        if (args.unread !== undefined) {
          where.push('unread = ?');
          params.push(args.unread ? 1 : 0);
        }
        if (args.from !== undefined) {
          where.push('instr(lower(sender), lower(?)) > 0');
          params.push(args.from);
        }
        const rows = db
          .prepare(`SELECT * FROM mails WHERE ${where.join(' AND ')} ORDER BY date DESC, id DESC LIMIT ?`)
          .all(...params, args.limit ?? 20) as MailRow[];
        return jsonResult({ folder: args.folder ?? 'inbox', count: rows.length, emails: rows.map((row) => mailView(row)) });
      }),
  );
  server.registerTool(
    'search_emails',
    {
      description: 'Search emails whose subject, body or sender contains the query (case-insensitive), in one folder or all but trash.',
      inputSchema: { query: z.string().min(1), folder: folder.optional(), limit },
    },
    (args, extra) =>
      guarded(async () => {
        const db = taskDatabase(extra, emailDatabase);
        const inFolder = args.folder ? 'folder = ?' : "folder != 'trash'";
        const match = 'instr(lower(subject), lower(?)) > 0 OR instr(lower(body), lower(?)) > 0 OR instr(lower(sender), lower(?)) > 0';
        const params = [...(args.folder ? [args.folder] : []), args.query, args.query, args.query];
        const rows = db
          .prepare(`SELECT * FROM mails WHERE ${inFolder} AND (${match}) ORDER BY date DESC, id DESC LIMIT ?`)
          .all(...params, args.limit ?? 20) as MailRow[];
        return jsonResult({ query: args.query, count: rows.length, emails: rows.map((row) => mailView(row)) });
      }),
  );
  registerMailTools(server);
}

function registerMailTools(server: McpServer): void {
  server.registerTool('read_email', { description: 'Read one email in full (with its body); marks it as read.', inputSchema: { id: mailId } }, (args, extra) =>
    guarded(async () => {
      const db = taskDatabase(extra, emailDatabase);
      const row = mailById(db, args.id);
      db.prepare('UPDATE mails SET unread = 0 WHERE id = ?').run(args.id);
      return jsonResult(mailView({ ...row, unread: 0 }, true));
    }),
  );
  server.registerTool(
    'mark_email',
    { description: 'Mark an email as read or unread.', inputSchema: { id: mailId, status: z.enum(['read', 'unread']) } },
    (args, extra) =>
      guarded(async () => {
        const db = taskDatabase(extra, emailDatabase);
        mailById(db, args.id);
        db.prepare('UPDATE mails SET unread = ? WHERE id = ?').run(args.status === 'unread' ? 1 : 0, args.id);
        return jsonResult({ id: args.id, status: args.status });
      }),
  );
  server.registerTool(
    'delete_email',
    {
      description: 'Delete an email: it moves to the trash folder; a mail already in the trash, or with permanent: true, is removed for good.',
      inputSchema: { id: mailId, permanent: z.boolean().optional() },
    },
    (args, extra) =>
      guarded(async () => {
        const db = taskDatabase(extra, emailDatabase);
        const row = mailById(db, args.id);
        if (args.permanent === true || row.folder === 'trash') {
          db.prepare('DELETE FROM mails WHERE id = ?').run(args.id);
          return jsonResult({ id: args.id, status: 'deleted permanently' });
        }
        db.prepare("UPDATE mails SET folder = 'trash' WHERE id = ?").run(args.id);
        return jsonResult({ id: args.id, status: 'moved to trash' });
      }),
  );
}
