// Paginated MCP list requests (tools/list, resources/list, prompts/list): follow `nextCursor`
// to the end, refusing a cursor seen twice (a server stuck in a loop) and a runaway page count.
const maxPages = 1000;

export async function collectPages<T>(
  method: string,
  fetchPage: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string | undefined }>,
): Promise<T[]> {
  const items: T[] = [];
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page += 1) {
    const result = await fetchPage(cursor);
    items.push(...result.items);
    cursor = result.nextCursor;
    if (cursor === undefined) break;
    if (seenCursors.has(cursor)) throw new Error(`${method} returned cursor "${cursor}" twice (pagination loop)`);
    seenCursors.add(cursor);
  }
  return items;
}
