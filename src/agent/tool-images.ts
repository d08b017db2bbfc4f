// Images a tool produced, to be shown to the model: MCP image content first; otherwise image
// files the tool wrote and named in its JSON result (`images`, `output_path`, `path`, ...).
// Files are typed by magic bytes and read only from the allowed image roots.
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { ImagePart } from '../core/content.js';
import type { ToolCallOutcome } from '../mcp/types.js';
import { loadImageFile } from '../media/load-image.js';
import { prepareImage, type ImagePolicy } from '../media/prepare-image.js';

const maxImagesPerCall = 4;
// Only keys that name a file the tool wrote: a plain `path` often echoes the input (get_metadata).
const pathKeys = ['output_path', 'outputPath', 'file_path', 'saved_path'];

function namedPaths(text: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return [];
  const record = parsed as Record<string, unknown>;
  const found: string[] = [];
  if (Array.isArray(record.images)) found.push(...record.images.filter((item): item is string => typeof item === 'string'));
  for (const key of pathKeys) if (typeof record[key] === 'string') found.push(record[key]);
  return [...new Set(found)].filter((entry) => !entry.startsWith('data:'));
}

function insideRoots(file: string, roots: readonly string[]): boolean {
  const real = realpathSync(file);
  return roots.some((root) => {
    const relative = path.relative(existsSync(root) ? realpathSync(root) : root, real);
    return !relative.startsWith('..') && !path.isAbsolute(relative);
  });
}

interface ExtractedImages {
  images: ImagePart[];
  /** Problems worth telling the model (a named file that is not an image), never thrown. */
  notes: string[];
}

async function imagesFromOutcome(outcome: ToolCallOutcome, policy: ImagePolicy, roots: readonly string[], cwd: string): Promise<ExtractedImages> {
  const images: ImagePart[] = [];
  const notes: string[] = [];
  const inline = outcome.content.filter((item): item is Extract<typeof item, { type: 'image' }> => item.type === 'image');
  for (const [index, item] of inline.slice(0, maxImagesPerCall).entries()) {
    try {
      images.push(await prepareImage(Buffer.from(item.data, 'base64'), `${outcome.canonicalName} image ${index + 1}`, policy));
    } catch (error) {
      notes.push((error as Error).message);
    }
  }
  if (inline.length > 0 || outcome.isError) return { images, notes };
  for (const named of namedPaths(outcome.text).slice(0, maxImagesPerCall)) {
    const file = path.resolve(cwd, named);
    if (!existsSync(file) || !insideRoots(file, roots)) continue;
    try {
      images.push(await loadImageFile(file, policy));
    } catch (error) {
      notes.push((error as Error).message);
    }
  }
  return { images, notes };
}

/** A result as the model sees it: its images, and its text with any image problems noted. */
export async function withToolImages(
  outcome: ToolCallOutcome,
  policy: ImagePolicy,
  roots: readonly string[],
  cwd: string,
): Promise<{ text: string; images: ImagePart[] }> {
  const extracted = await imagesFromOutcome(outcome, policy, roots, cwd);
  const notes = extracted.notes.length > 0 ? `\n[image note] ${extracted.notes.join('; ')}` : '';
  return { text: outcome.text + notes, images: extracted.images };
}
