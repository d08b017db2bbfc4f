-- 001: the run store. One run = one invocation of the benchmark (possibly several models);
-- episodes are task x model x trial x attempt; calls hang off episodes; scores off runs or labels.
-- Timestamps are ISO 8601 UTC text; JSON columns are TEXT written after secret redaction.

CREATE TABLE runs (
  run_id           TEXT PRIMARY KEY,
  model_spec       TEXT NOT NULL,
  model_label      TEXT NOT NULL,
  started_at       TEXT NOT NULL,
  finished_at      TEXT,
  status           TEXT NOT NULL DEFAULT 'running'
                   CHECK (status IN ('running', 'finished', 'failed', 'interrupted')),
  config_hash      TEXT,
  git_commit       TEXT,
  package_versions TEXT NOT NULL DEFAULT '{}',
  switches         TEXT NOT NULL DEFAULT '{}',
  tools_hash       TEXT,
  tool_surface     TEXT NOT NULL DEFAULT '{}',
  manifest         TEXT,
  seed             INTEGER,
  task_file        TEXT,
  gt_file          TEXT
);

CREATE TABLE episodes (
  id               INTEGER PRIMARY KEY,
  run_id           TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
  task_id          TEXT NOT NULL,
  model            TEXT NOT NULL,
  trial            INTEGER NOT NULL DEFAULT 1 CHECK (trial >= 1),
  attempt          INTEGER NOT NULL DEFAULT 1 CHECK (attempt >= 1),
  status           TEXT NOT NULL DEFAULT 'running'
                   CHECK (status IN ('ok', 'model_failure', 'infra_failure', 'timeout', 'running')),
  failure_kind     TEXT CHECK (failure_kind IN ('model', 'infra')),
  error_code       TEXT,
  error_message    TEXT,
  started_at       TEXT NOT NULL,
  finished_at      TEXT,
  rounds           INTEGER NOT NULL DEFAULT 0,
  tool_call_count  INTEGER NOT NULL DEFAULT 0,
  input_tokens     INTEGER NOT NULL DEFAULT 0,
  output_tokens    INTEGER NOT NULL DEFAULT 0,
  cached_tokens    INTEGER NOT NULL DEFAULT 0,
  cost_usd         REAL,
  prediction       TEXT,
  -- model is part of the key so one run may hold several models (task x model x trial).
  UNIQUE (run_id, task_id, model, trial, attempt),
  -- The failure kind must agree with the status, so model scores can exclude infra failures.
  CHECK (
    (status IN ('ok', 'running') AND failure_kind IS NULL)
    OR (status = 'model_failure' AND failure_kind = 'model')
    OR (status = 'infra_failure' AND failure_kind = 'infra')
    OR (status = 'timeout' AND failure_kind IS NOT NULL)
  )
);
CREATE INDEX episodes_run_model ON episodes (run_id, model, status);

CREATE TABLE model_calls (
  id               INTEGER PRIMARY KEY,
  episode_id       INTEGER NOT NULL REFERENCES episodes (id) ON DELETE CASCADE,
  round            INTEGER NOT NULL,
  purpose          TEXT NOT NULL,
  request          TEXT,
  response         TEXT,
  input_tokens     INTEGER NOT NULL DEFAULT 0,
  output_tokens    INTEGER NOT NULL DEFAULT 0,
  cached_tokens    INTEGER NOT NULL DEFAULT 0,
  latency_ms       INTEGER NOT NULL DEFAULT 0,
  attempts         TEXT NOT NULL DEFAULT '[]',
  error_class      TEXT,
  error_message    TEXT,
  created_at       TEXT NOT NULL
);
CREATE INDEX model_calls_episode ON model_calls (episode_id, round);

CREATE TABLE tool_calls (
  id               INTEGER PRIMARY KEY,
  episode_id       INTEGER NOT NULL REFERENCES episodes (id) ON DELETE CASCADE,
  round            INTEGER NOT NULL,
  call_index       INTEGER NOT NULL,
  canonical_name   TEXT NOT NULL,
  function_name    TEXT,
  arguments        TEXT,
  result_text      TEXT NOT NULL DEFAULT '',
  is_error         INTEGER NOT NULL DEFAULT 0 CHECK (is_error IN (0, 1)),
  error_code       TEXT,
  duration_ms      INTEGER NOT NULL DEFAULT 0,
  images           TEXT NOT NULL DEFAULT '[]',
  created_at       TEXT NOT NULL,
  UNIQUE (episode_id, round, call_index)
);

CREATE TABLE scores (
  id               INTEGER PRIMARY KEY,
  run_id           TEXT REFERENCES runs (run_id) ON DELETE CASCADE,
  model_label      TEXT,
  task_id          TEXT,
  level            TEXT NOT NULL CHECK (level IN ('step', 'call', 'final')),
  metric           TEXT NOT NULL,
  value            REAL,
  extra            TEXT,
  created_at       TEXT NOT NULL,
  CHECK (run_id IS NOT NULL OR model_label IS NOT NULL)
);
-- One value per (owner, task, level, metric): re-running an evaluator replaces its scores.
CREATE UNIQUE INDEX scores_identity ON scores (
  COALESCE(run_id, ''), COALESCE(model_label, ''), COALESCE(task_id, ''), level, metric
);
