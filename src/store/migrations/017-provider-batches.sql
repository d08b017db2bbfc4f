-- 017: provider batch jobs (m3 run --batch). Each row of provider_batches is one batch job
-- submitted to a vendor's batch API (OpenAI Batch, Anthropic Message Batches, Gemini batch mode)
-- for a run; each row of provider_batch_requests is one request in it, by the custom id the
-- vendor returns it under and the key of the request it answers (src/llm/response-cache-key.ts).
-- A job still 'pending' when the process ended is picked up by `m3 run --resume`: the same
-- request (same key) waits for that job's result instead of being sent again.
CREATE TABLE provider_batches (
  id               INTEGER PRIMARY KEY,
  run_id           TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
  provider         TEXT NOT NULL,
  model            TEXT NOT NULL,
  vendor_batch_id  TEXT NOT NULL,
  state            TEXT NOT NULL CHECK (state IN ('pending', 'ended', 'expired', 'failed', 'canceled')),
  detail           TEXT,
  submitted_at     TEXT NOT NULL,
  updated_at       TEXT NOT NULL,
  UNIQUE (run_id, vendor_batch_id)
);

CREATE TABLE provider_batch_requests (
  id               INTEGER PRIMARY KEY,
  batch_row_id     INTEGER NOT NULL REFERENCES provider_batches (id) ON DELETE CASCADE,
  custom_id        TEXT NOT NULL,
  request_key      TEXT NOT NULL,
  -- NULL while the job is pending; 'answered' by the job, or 'fallback' (sent synchronously).
  outcome          TEXT CHECK (outcome IS NULL OR outcome IN ('answered', 'fallback')),
  UNIQUE (batch_row_id, custom_id)
);

CREATE INDEX provider_batch_requests_key ON provider_batch_requests (request_key);
