// The audit log of served mocks: one JSON line per call the fallback layer answered, appended to
// tools/mock_runtime/logs/_mock_calls.log (git-ignored), so every mocked return stays traceable
// to its run, task, tool, arguments and tier. Appends are synchronous and whole lines, so
// concurrent tasks (and processes) never interleave half entries.
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { FALLBACK_TIERS, type FallbackTier } from '../core/tool-result-contract.js';
import { redactValue } from '../log/redact.js';

/** @internal Exported for its tests. */
export const auditEntrySchema = z.strictObject({
  time: z.string(),
  run: z.string().nullable(),
  task: z.string(),
  server: z.string(),
  tool: z.string(),
  arguments: z.unknown(),
  tier: z.enum(FALLBACK_TIERS),
  original_error_code: z.string(),
  mocked: z.literal(true),
  /** Why an earlier tier did not serve (e.g. the simulator's reply failed validation twice). */
  note: z.string().optional(),
});
/** @internal Exported for its tests. */
export type AuditEntry = z.output<typeof auditEntrySchema>;

export interface AuditRecord {
  runId: string | undefined;
  taskId: string;
  server: string;
  tool: string;
  arguments: unknown;
  tier: FallbackTier;
  originalErrorCode: string;
  note?: string;
}

export class AuditLog {
  private folderReady = false;

  constructor(readonly file: string) {}

  append(record: AuditRecord): void {
    const entry: AuditEntry = {
      time: new Date().toISOString(),
      run: record.runId ?? null,
      task: record.taskId,
      server: record.server,
      tool: record.tool,
      arguments: redactValue(record.arguments),
      tier: record.tier,
      original_error_code: record.originalErrorCode,
      mocked: true,
      ...(record.note ? { note: record.note } : {}),
    };
    if (!this.folderReady) {
      mkdirSync(path.dirname(this.file), { recursive: true });
      this.folderReady = true;
    }
    appendFileSync(this.file, `${JSON.stringify(entry)}\n`, 'utf8');
  }
}
