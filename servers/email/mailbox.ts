// The email server's database: tables, seeding, and the row shape tools answer with.
import type { Db, TaskDatabaseSpec } from '../shared/task-database.js';
import type { TaskSeed } from '../shared/radar-seed.js';

export const emailDatabase: TaskDatabaseSpec = {
  name: 'email',
  schema: `
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE mails (
      id INTEGER PRIMARY KEY,
      folder TEXT NOT NULL,
      sender TEXT NOT NULL,
      recipients TEXT NOT NULL,
      subject TEXT NOT NULL,
      body TEXT NOT NULL,
      date TEXT NOT NULL,
      unread INTEGER NOT NULL
    );`,
  seed: (db: Db, seed: TaskSeed) => {
    db.prepare("INSERT INTO meta (key, value) VALUES ('mailbox', ?)").run(seed.mailbox);
    const insert = db.prepare('INSERT INTO mails (folder, sender, recipients, subject, body, date, unread) VALUES (?, ?, ?, ?, ?, ?, ?)');
    for (const mail of seed.mails) insert.run(mail.folder, mail.from, mail.to.join(', '), mail.subject, mail.body, mail.date, mail.unread ? 1 : 0);
  },
};

export interface MailRow {
  id: number;
  folder: string;
  sender: string;
  recipients: string;
  subject: string;
  body: string;
  date: string;
  unread: number;
}

/** A mail as tools show it; `body` only when the mail is read in full. */
export function mailView(row: MailRow, withBody = false): Record<string, unknown> {
  return {
    id: row.id,
    folder: row.folder,
    from: row.sender,
    to: row.recipients.split(', ').filter(Boolean),
    subject: row.subject,
    date: row.date,
    unread: row.unread === 1,
    ...(withBody ? { body: row.body } : {}),
  };
}

export function mailboxOf(db: Db): string {
  const row = db.prepare("SELECT value FROM meta WHERE key = 'mailbox'").get() as { value: string } | undefined;
  return row?.value ?? 'me@radar.test';
}

export function mailById(db: Db, id: number): MailRow {
  const row = db.prepare('SELECT * FROM mails WHERE id = ?').get(id) as MailRow | undefined;
  if (!row) throw new Error(`no mail with id ${id} (list_emails or search_emails show the ids)`);
  return row;
}

/** Now as local time to the minute, the form seeded dates use. */
export function nowLocal(): string {
  const now = new Date();
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}T${pad(now.getHours())}:${pad(now.getMinutes())}`;
}
