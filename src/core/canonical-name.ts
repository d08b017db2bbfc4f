// A tool's canonical name is `server/tool` (the ground truth's and the predictions' form). The
// server part is everything before the first slash; a name without one is all server.
export function serverOf(canonicalName: string): string {
  return canonicalName.split('/')[0] ?? '';
}

/** `server/tool` split at the first slash; undefined when either part is empty. */
export function splitCanonical(name: string): { server: string; tool: string } | undefined {
  const index = name.indexOf('/');
  if (index <= 0 || index === name.length - 1) return undefined;
  return { server: name.slice(0, index), tool: name.slice(index + 1) };
}
