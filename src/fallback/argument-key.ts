// The one normalisation of tool arguments that fixtures and the cache are matched by: JSON with
// object keys sorted at every level (array order kept, undefined members dropped). Numbers are
// compared as numbers, since JSON.parse already makes 7, 7.0 and 7e0 the same value.
import { stableStringify } from '../mcp/tools-hash.js';

export function argumentsKey(args: unknown): string {
  return stableStringify(args ?? {});
}
