-- 013: the agent that made each model request and tool call. A workflow (src/agent/workflow.ts)
-- runs several agents under one episode: each inner request and call names its agent (the
-- workflow's own name for the router's and orchestrator's planning requests). NULL: a run of a
-- single agent, and every row written before this migration.
ALTER TABLE model_calls ADD COLUMN agent TEXT;
ALTER TABLE tool_calls ADD COLUMN agent TEXT;
