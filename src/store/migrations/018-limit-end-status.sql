-- 018: three more end statuses (src/core/end-status.ts): an episode the harness stopped because
-- its tokens, model replies or cost reached the task's limit (m3 run --token-limit,
-- --message-limit, --cost-limit): limit_tokens, limit_messages, limit_cost. SQLite cannot change
-- a column's CHECK, and rebuilding the episodes table would cascade deletes into its calls, so
-- the column is replaced: a new column with the wider CHECK, the values copied, the old column
-- dropped (its CHECK belongs to it alone), the new one given the old name.
ALTER TABLE episodes ADD COLUMN end_status_017 TEXT
  CHECK (end_status_017 IS NULL OR end_status_017 IN ('answered', 'empty', 'refused', 'truncated', 'context_exceeded', 'malformed_call', 'paused', 'other', 'limit_tokens', 'limit_messages', 'limit_cost'));
UPDATE episodes SET end_status_017 = end_status;
ALTER TABLE episodes DROP COLUMN end_status;
ALTER TABLE episodes RENAME COLUMN end_status_017 TO end_status;
