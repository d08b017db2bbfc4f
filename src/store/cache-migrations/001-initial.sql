-- 001: the record-replay cache of the tool fallback layer (src/fallback/), its own SQLite file
-- under tools/mock_runtime/cache/. One entry per server, tool, normalised arguments and the
-- server's tool-surface hash; `source` says where the result came from.

CREATE TABLE cache_entries (
  id               INTEGER PRIMARY KEY,
  server           TEXT NOT NULL,
  tool             TEXT NOT NULL,
  -- Stable normalisation of the arguments (sorted keys), the lookup key.
  arguments_key    TEXT NOT NULL,
  -- sha256 of the server's tool list when the entry was made ('' when unknown).
  tools_hash       TEXT NOT NULL DEFAULT '',
  -- The arguments as they were given (JSON, redacted).
  arguments        TEXT NOT NULL,
  -- The result text exactly as the tool returned it (or as simulated).
  result_text      TEXT NOT NULL,
  source           TEXT NOT NULL CHECK (source IN ('real', 'fixture', 'simulated')),
  recorded_at      TEXT NOT NULL,
  UNIQUE (server, tool, arguments_key, tools_hash)
);
CREATE INDEX cache_entries_tool ON cache_entries (server, tool, source);
