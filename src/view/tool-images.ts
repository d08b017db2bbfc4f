// Images a tool call produced. The store keeps each image's size and type, not its bytes; our
// image tools write the files and name them in the result JSON (`"images": [...]`, or a
// `path`/`output_path` field). The viewer serves such a file only by tool-call id and position,
// and only when it resolves (symlinks followed) inside one of the allowed folders.
import { realpathSync } from 'node:fs';
import path from 'node:path';

const imageExtension = /\.(png|jpe?g|gif|webp|bmp)$/i;

export const imageTypes: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.bmp': 'image/bmp',
};

function collect(value: unknown, into: string[]): void {
  if (typeof value === 'string') {
    if (imageExtension.test(value)) into.push(value);
  } else if (Array.isArray(value)) {
    for (const item of value) collect(item, into);
  } else if (value && typeof value === 'object') {
    for (const item of Object.values(value)) collect(item, into);
  }
}

/** Image file paths named in a tool result; none when the result is not JSON or recorded no image. */
export function toolImagePaths(resultText: string, recordedImages: number): string[] {
  if (recordedImages === 0) return [];
  // The recorded text is the tool's JSON followed by one `[image: type, N bytes]` line per image.
  const json = resultText.replace(/(\n\[image: [^\]\n]*\])+\s*$/, '');
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return [];
  }
  const found: string[] = [];
  collect(parsed, found);
  return [...new Set(found)];
}

/** The real path of `file` when it lies inside one of `roots`, else undefined. */
export function insideRoots(file: string, roots: readonly string[], base: string): string | undefined {
  let real: string;
  try {
    real = realpathSync(path.resolve(base, file));
  } catch {
    return undefined;
  }
  for (const root of roots) {
    let realRoot: string;
    try {
      realRoot = realpathSync(root);
    } catch {
      continue;
    }
    if (real.startsWith(realRoot + path.sep)) return real;
  }
  return undefined;
}
