// The last tier: a generic synthetic payload that says plainly it is a stand-in. It never throws
// and needs nothing (no file, no network, no model), so a task is never blocked by its tools.
// The inline mark (M3_MOCK_MARK_INLINE) wraps any served payload the same way for every tier.
import type { FallbackTier } from '../core/tool-result-contract.js';

export function templatePayload(canonicalName: string, args: unknown, reason: string): string {
  return JSON.stringify({
    mocked: true,
    note: `generic synthetic fallback: the real tool failed (${reason}) and no fixture, cached or simulated return was available`,
    tool: canonicalName,
    arguments: args ?? {},
  });
}

/** `{"mocked":true,"tier":...,"result":...}`: the payload text, or the JSON value a fixture wrote. */
export function markInline(tier: FallbackTier, text: string, value: unknown): string {
  return JSON.stringify({ mocked: true, tier, result: value !== undefined ? value : text });
}
