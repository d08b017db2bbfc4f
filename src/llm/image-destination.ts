// Which vendor's vision limits and which media types apply to the images of a `provider:model`
// spec: the transport policy sizes and encodes for exactly that endpoint (src/media/transport-policy.ts),
// and each request's image tokens are estimated with that vendor's formula.
import { genericDestination, type ImageDestination } from '../media/image-destination.js';
import type { VisionVendor } from '../media/vision-tokens.js';
import { anthropicImageTypes, geminiImageTypes, responsesImageTypes } from './image-types.js';
import { resolveChatPreset } from './presets.js';
import { providerEntry } from './provider-table.js';
import { parseModelSpec } from './registry.js';

/** The vendor whose published token formula applies to a provider; none for compatible servers. */
export function visionVendorOf(provider: string): VisionVendor | undefined {
  const entry = providerEntry(provider);
  if (!entry) return undefined;
  if (entry.kind === 'anthropic') return 'anthropic';
  if (entry.kind === 'gemini') return 'gemini';
  if (entry.kind === 'responses' || provider === 'openai') return 'openai';
  return undefined;
}

export function imageDestinationFor(spec: string): ImageDestination {
  const { provider, model } = parseModelSpec(spec);
  const entry = providerEntry(provider);
  const vendor = visionVendorOf(provider) ?? 'generic';
  if (entry?.kind === 'anthropic') return { vendor, accepts: anthropicImageTypes };
  if (entry?.kind === 'gemini') return { vendor, accepts: geminiImageTypes };
  if (entry?.kind === 'responses') return { vendor, accepts: responsesImageTypes };
  if (entry?.kind === 'chat') return { vendor, accepts: resolveChatPreset(provider, model).preset.imageTypes };
  return genericDestination;
}
