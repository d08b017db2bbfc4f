-- 001: the model-response cache of `m3 run --cache` (src/runner/response-cache.ts), its own SQLite
-- file (default <results-dir>/model-cache.sqlite). One entry per request key: sha256 of the
-- canonical request (src/llm/response-cache-key.ts), which is stored beside it so an import can
-- recompute the key. Never a key, a header or an image's bytes (images appear as content hashes).

CREATE TABLE model_responses (
  id            INTEGER PRIMARY KEY,
  request_key   TEXT NOT NULL UNIQUE,
  provider      TEXT NOT NULL,
  model         TEXT NOT NULL,
  -- The canonical request (JSON, redacted) the key is the sha256 of.
  request       TEXT NOT NULL,
  -- The neutral response (text, tool calls, stop reason, usage, warnings, reasoning), JSON, redacted.
  response      TEXT NOT NULL,
  -- Where the entry came from: 'recorded' by a run (run_id names it) or 'imported' from a file.
  origin        TEXT NOT NULL CHECK (origin IN ('recorded', 'imported')),
  run_id        TEXT,
  recorded_at   TEXT NOT NULL
);
CREATE INDEX model_responses_model ON model_responses (provider, model);
