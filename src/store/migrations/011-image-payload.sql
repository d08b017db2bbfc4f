-- 011: the images of each model request, as sent (src/media/request-images.ts): how many image
-- parts the request carried (history re-sends earlier ones), their payload bytes, and the image
-- tokens the destination vendor's published formula estimates (src/media/vision-tokens.ts).
-- image_tokens_est is NULL where no formula applies (OpenAI-compatible servers, replay) and for
-- rows written before this migration, whose images were not measured.
ALTER TABLE model_calls ADD COLUMN image_count INTEGER NOT NULL DEFAULT 0 CHECK (image_count >= 0);
ALTER TABLE model_calls ADD COLUMN image_bytes INTEGER NOT NULL DEFAULT 0 CHECK (image_bytes >= 0);
ALTER TABLE model_calls ADD COLUMN image_tokens_est INTEGER CHECK (image_tokens_est IS NULL OR image_tokens_est >= 0);
