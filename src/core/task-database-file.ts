// Where a mock-domain server (servers/email, servers/calendar) keeps a task's SQLite database,
// and where the state evaluators (src/eval/state) read it back: one rule, shared by both.
// The database must belong to one task of one run. A workspace made for the task (`m3 tasks
// verify`: <its scratch folder>/<id>; isolated runs: media/runs/<run>/<id>) ends in the task's folder
// name and holds it directly; a workspace shared by tasks (the default dedup mode: media/)
// gets a per-run, per-task subfolder, so tasks never share a database.
import path from 'node:path';

/** The folder name a task id becomes (the runner's and the verifier's rule). */
function taskFolderName(taskId: string): string {
  return taskId.replace(/[^A-Za-z0-9._-]/g, '_');
}

export function taskDatabaseFile(context: { workspace: string; taskId: string; runId?: string }, name: string): string {
  const folder = taskFolderName(context.taskId);
  if (path.basename(context.workspace) === folder) return path.join(context.workspace, `${name}.sqlite`);
  return path.join(context.workspace, 'task-state', taskFolderName(context.runId || 'no-run'), folder, `${name}.sqlite`);
}
