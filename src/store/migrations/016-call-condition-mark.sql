-- 016: what a robustness condition (src/robustness/) did to a call, as JSON
-- ({"kind": "distractor"|"injected_fault"|"injection", "detail": ..., "canary": ..., ...}).
-- NULL for every call of a run without a robustness condition.
ALTER TABLE tool_calls ADD COLUMN condition_mark TEXT;
