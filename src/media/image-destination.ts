// Where prepared images go: whose vision pipeline sizes them and which media types the endpoint
// decodes. src/llm/image-destination.ts derives it from a `provider:model` spec; without one
// (`generic`) only PNG and JPEG are emitted, the two types every image-capable endpoint takes.
import type { VisionVendor } from './vision-tokens.js';

export interface ImageDestination {
  /** The vendor whose published limits and token formula apply; `generic` caps by M3_IMAGE_MAX_EDGE only. */
  vendor: VisionVendor | 'generic';
  /** Media types the endpoint decodes; the policy emits nothing else. */
  accepts: readonly string[];
}

export const genericDestination: ImageDestination = { vendor: 'generic', accepts: ['image/png', 'image/jpeg'] };
