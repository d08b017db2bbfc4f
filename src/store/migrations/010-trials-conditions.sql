-- 010: trials and conditions (m3 run --trials k --condition NAME). A run row is one model under
-- one condition; its episodes carry their trial (the existing trial column), the seed that trial
-- sent, and the task's prompt hash (question + image sha256s + tool surface, src/runner/prompt-hash.ts).
-- batch_id ties the runs of one `m3 run` invocation together (the batch manifest names them too).
ALTER TABLE runs ADD COLUMN batch_id TEXT;
ALTER TABLE runs ADD COLUMN condition TEXT NOT NULL DEFAULT 'baseline';
ALTER TABLE runs ADD COLUMN trials INTEGER NOT NULL DEFAULT 1 CHECK (trials >= 1);
ALTER TABLE episodes ADD COLUMN seed INTEGER;
ALTER TABLE episodes ADD COLUMN prompt_hash TEXT;
CREATE INDEX episodes_run_trial ON episodes (run_id, model, trial, task_id);
