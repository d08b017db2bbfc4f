// The image media types each vendor API decodes, in one place: the drivers conform requests to
// them (src/llm/conform-images.ts) and the transport policy emits only these (src/llm/image-destination.ts).
// OpenAI-compatible servers differ per preset (src/llm/presets.ts).

/** Anthropic Messages: JPEG, PNG, GIF, WebP. */
export const anthropicImageTypes = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

/** Gemini: PNG, JPEG, WebP, HEIC, HEIF; no GIF. */
export const geminiImageTypes = ['image/png', 'image/jpeg', 'image/webp', 'image/heic', 'image/heif'];

/** OpenAI Responses API: PNG, JPEG, WebP, non-animated GIF. */
export const responsesImageTypes = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];
