// Images a tool produced, to be shown to the model: MCP image content first; otherwise image
// files the tool wrote and named in its JSON result (`images`, `output_path`, `path`, ...).
// Files are typed by magic bytes and read only from the allowed image roots. Images that do not
// become image parts (over the per-call limit, a missing file or one outside the roots, bytes
// that do not decode, an embedded image resource) are returned as dropped, with the reason, for
// the image-delivery audit (src/core/image-delivery.ts); all but the embedded resource (which the
// result's text names already) are also noted in the text the model reads.
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { ImagePart } from '../core/content.js';
import type { ImageDelivery } from '../core/image-delivery.js';
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

/** A tool image that never became an image part, with the reason (an audit entry's fields). */
export type DroppedImage = Required<Pick<ImageDelivery, 'source' | 'mediaType' | 'reason'>>;

interface ExtractedImages {
  images: ImagePart[];
  /** What the model is told about images it does not get (not decodable, over the limit, missing, outside the roots), never thrown. */
  notes: string[];
  dropped: DroppedImage[];
}

// The model is told what the harness withheld (the tool's text alone would suggest it sees every image).
const overLimitNote = (count: number) => `${count - maxImagesPerCall} of the ${count} images are not shown: at most ${maxImagesPerCall} per tool call`;

const prepareFailed = (error: unknown) => `prepare_failed: ${(error as Error).message}`;

async function inlineImages(outcome: ToolCallOutcome, policy: ImagePolicy, extracted: ExtractedImages): Promise<void> {
  const inline = outcome.content.filter((item): item is Extract<typeof item, { type: 'image' }> => item.type === 'image');
  if (inline.length > maxImagesPerCall) extracted.notes.push(overLimitNote(inline.length));
  for (const [index, item] of inline.entries()) {
    const source = `${outcome.canonicalName} image ${index + 1}`;
    if (index >= maxImagesPerCall) {
      extracted.dropped.push({ source, mediaType: item.mimeType, reason: 'over_per_call_limit' });
      continue;
    }
    try {
      extracted.images.push(await prepareImage(Buffer.from(item.data, 'base64'), source, policy));
    } catch (error) {
      extracted.notes.push((error as Error).message);
      extracted.dropped.push({ source, mediaType: item.mimeType, reason: prepareFailed(error) });
    }
  }
  // Embedded image resources are named in the result text only, never shown as images.
  for (const item of outcome.content) {
    if (item.type === 'resource' && item.blob && item.mimeType?.startsWith('image/')) {
      extracted.dropped.push({ source: item.uri, mediaType: item.mimeType, reason: 'embedded_resource_not_shown' });
    }
  }
}

async function namedImages(outcome: ToolCallOutcome, policy: ImagePolicy, roots: readonly string[], cwd: string, extracted: ExtractedImages): Promise<void> {
  const named = namedPaths(outcome.text);
  if (named.length > maxImagesPerCall) extracted.notes.push(overLimitNote(named.length));
  for (const [index, given] of named.entries()) {
    const file = path.resolve(cwd, given);
    const drop = (reason: string) => extracted.dropped.push({ source: file, mediaType: '', reason });
    if (index >= maxImagesPerCall) drop('over_per_call_limit');
    else if (!existsSync(file)) {
      drop('file_not_found');
      extracted.notes.push(`${given} does not exist, so it is not shown`);
    } else if (!insideRoots(file, roots)) {
      drop('outside_allowed_roots');
      extracted.notes.push(`${given} is outside the folders images are shown from, so it is not shown`);
    } else {
      try {
        extracted.images.push(await loadImageFile(file, policy));
      } catch (error) {
        extracted.notes.push((error as Error).message);
        drop(prepareFailed(error));
      }
    }
  }
}

/**
 * MCP image content first; only a result without any (and not an error) is searched for named
 * files. Every image that does not become a part is listed in `dropped` with its reason.
 */
async function imagesFromOutcome(outcome: ToolCallOutcome, policy: ImagePolicy, roots: readonly string[], cwd: string): Promise<ExtractedImages> {
  const extracted: ExtractedImages = { images: [], notes: [], dropped: [] };
  await inlineImages(outcome, policy, extracted);
  const hasInline = outcome.content.some((item) => item.type === 'image');
  if (!hasInline && !outcome.isError) await namedImages(outcome, policy, roots, cwd, extracted);
  return extracted;
}

/** A result as the model sees it: its images, its text with any image problems noted, and the images dropped. */
export async function withToolImages(
  outcome: ToolCallOutcome,
  policy: ImagePolicy,
  roots: readonly string[],
  cwd: string,
): Promise<{ text: string; images: ImagePart[]; dropped: DroppedImage[] }> {
  const extracted = await imagesFromOutcome(outcome, policy, roots, cwd);
  const notes = extracted.notes.length > 0 ? `\n[image note] ${extracted.notes.join('; ')}` : '';
  return { text: outcome.text + notes, images: extracted.images, dropped: extracted.dropped };
}
