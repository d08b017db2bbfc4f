-- 015: model requests stored without repeating the history. Each round's request carries the
-- whole conversation so far, so storing it whole grew the store by the history once per round
-- (about 123 KB a round for a looping model). A row with request_delta = 1 holds, in `request`,
-- only what changed against the previous request of the same episode, agent and purpose (in id
-- order): the keys that are the same, the arrays it extends (how many leading items it keeps and
-- the items it adds) and the keys it sets (src/store/request-delta.ts). Reading rebuilds the
-- full request. 0: the request is stored whole (every row written before this migration).
ALTER TABLE model_calls ADD COLUMN request_delta INTEGER NOT NULL DEFAULT 0 CHECK (request_delta IN (0, 1));
