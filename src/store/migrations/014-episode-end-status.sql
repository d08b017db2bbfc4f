-- 014: how each episode's last reply ended, in the same words for every vendor
-- (src/core/end-status.ts: answered, empty, refused, truncated, context_exceeded, malformed_call,
-- paused, other), and what the vendor said about it (a refusal's explanation, a finish reason
-- and its message). NULL: an episode that ended without a final reply (a failure), and every
-- row written before this migration.
ALTER TABLE episodes ADD COLUMN end_status TEXT
  CHECK (end_status IS NULL OR end_status IN ('answered', 'empty', 'refused', 'truncated', 'context_exceeded', 'malformed_call', 'paused', 'other'));
ALTER TABLE episodes ADD COLUMN end_detail TEXT;
