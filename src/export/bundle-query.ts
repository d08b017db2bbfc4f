// The task table's query in an exported page: the page has no server to ask, so the bundle carries
// every row of the run with its search text, and this entry (bundled by esbuild into the page,
// src/export/bundle-html.ts) answers `/api/runs/<id>/tasks?...` with the viewer's own query code
// (src/view/task-query.ts), exactly as the server does.
import { queryTasks, taskQuerySchema } from '../view/task-query.js';
import type { IndexedRow } from '../view/task-index.js';

(globalThis as { m3BundleQuery?: unknown }).m3BundleQuery = (rows: readonly IndexedRow[], params: Record<string, string>) => {
  const parsed = taskQuerySchema.safeParse(params);
  if (!parsed.success) throw new Error(`task query: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return queryTasks(rows, parsed.data);
};
