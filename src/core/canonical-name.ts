// A tool's canonical name is `server/tool` (the ground truth's and the predictions' form). The
// server part is everything before the first slash; a name without one is all server.
export function serverOf(canonicalName: string): string {
  return canonicalName.split('/')[0] ?? '';
}
