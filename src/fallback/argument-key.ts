// The one normalisation of tool arguments that fixtures and the cache are matched by: JSON with
// object keys sorted at every level (array order kept, undefined members dropped), taken of the
// arguments after secret redaction (src/log/redact.ts). Numbers are compared as numbers, since
// JSON.parse already makes 7, 7.0 and 7e0 the same value. Keying the redacted arguments means
// no secret ever reaches a cache column or an export line, and an imported line's key can be
// recomputed from its (already redacted) `arguments`: calls that differ only in a secret value
// (or in a secret-named field such as `token`) share one entry.
import { redactValue } from '../log/redact.js';
import { stableStringify } from '../mcp/tools-hash.js';

export function argumentsKey(args: unknown): string {
  return stableStringify(redactValue(args ?? {}));
}
