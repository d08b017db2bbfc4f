-- 019: how each model reply was paid for, and what it cost (src/llm/pricing.ts paidCost).
-- model_calls.billing: 'standard' (a synchronous request, list price), 'batch' (answered by a
-- provider batch job of `m3 run --batch`, billed at the batch price; vendor_batch_id names the
-- job) or 'cache' (served by the model-response cache of `m3 run --cache`: no request, $0 paid).
-- cost_usd is what the reply paid and saved_usd what the cache or batch pricing took off its
-- list price (NULL: the model has no price, or the row predates this migration). episodes.cost_usd
-- has always been the paid figure; episodes.saved_usd now keeps the saved one beside it.
ALTER TABLE model_calls ADD COLUMN billing TEXT NOT NULL DEFAULT 'standard' CHECK (billing IN ('standard', 'batch', 'cache'));
ALTER TABLE model_calls ADD COLUMN vendor_batch_id TEXT;
ALTER TABLE model_calls ADD COLUMN cost_usd REAL;
ALTER TABLE model_calls ADD COLUMN saved_usd REAL;
ALTER TABLE episodes ADD COLUMN saved_usd REAL;
