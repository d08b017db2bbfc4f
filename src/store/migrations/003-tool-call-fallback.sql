-- 002: which tier of the tool fallback layer served a call (src/fallback/), and the code its real
-- attempt failed with. Both NULL for every call the layer did not serve (all calls of a run with
-- M3_MOCK_FALLBACK off).
ALTER TABLE tool_calls ADD COLUMN fallback_tier TEXT
  CHECK (fallback_tier IS NULL OR fallback_tier IN ('fixture', 'cache', 'simulator', 'template'));
ALTER TABLE tool_calls ADD COLUMN fallback_error_code TEXT
  CHECK ((fallback_tier IS NULL) = (fallback_error_code IS NULL));
