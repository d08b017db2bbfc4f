// Images a tool produced, to be shown to the model: MCP image content first; otherwise image
// files the tool wrote and named in its JSON result: every entry of `images`, and a file under
// `output_path`, `file_path`, `saved_path` (...) only when it is an image: its bytes say so, or,
// when it does not exist, its name ends in an image extension. A saved document (pptx, xlsx, pdf,
// csv) is the tool's output, not an image: it is neither shown nor noted nor audited.
// Files are typed by magic bytes and read only from the allowed image roots. Images that do not
// become image parts (over the per-call limit, a missing file or one outside the roots, bytes
// that do not decode, an embedded image resource) are returned as dropped, with the reason, for
// the image-delivery audit (src/core/image-delivery.ts); all but the embedded resource (which the
// result's text names already) are also noted in the text the model reads.
import { existsSync, realpathSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import type { ImagePart } from '../core/content.js';
import type { ImageDelivery } from '../core/image-delivery.js';
import type { ToolCallOutcome } from '../mcp/types.js';
import { loadImageFile } from '../media/load-image.js';
import { detectMediaType, prepareImage, type ImagePolicy } from '../media/prepare-image.js';

const maxImagesPerCall = 4;
// Only keys that name a file the tool wrote: a plain `path` often echoes the input (get_metadata).
const pathKeys = ['output_path', 'outputPath', 'file_path', 'saved_path'];

const imageExtension = /\.(png|jpe?g|gif|webp|bmp|tiff?|avif|heic)$/i;

interface NamedPath {
  given: string;
  /** Listed under `images`: an image by the tool's word, whatever the file turns out to be. */
  namedAsImage: boolean;
}

function namedPaths(text: string): NamedPath[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return [];
  const record = parsed as Record<string, unknown>;
  const found = new Map<string, boolean>();
  if (Array.isArray(record.images)) for (const item of record.images) if (typeof item === 'string') found.set(item, true);
  for (const key of pathKeys) {
    const value = record[key];
    if (typeof value === 'string' && !found.has(value)) found.set(value, false);
  }
  return [...found].filter(([given]) => !given.startsWith('data:')).map(([given, namedAsImage]) => ({ given, namedAsImage }));
}

/** The media type the first bytes of `file` show, if any. */
async function sniffFile(file: string): Promise<string | undefined> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(4100);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return await detectMediaType(head.subarray(0, bytesRead));
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

/** Whether a path under a generic key (output_path, ...) is an image: by its bytes, or by its name when missing. */
async function isImageFile(file: string): Promise<boolean> {
  if (!existsSync(file)) return imageExtension.test(file);
  try {
    return (await sniffFile(file))?.startsWith('image/') ?? false;
  } catch {
    return false;
  }
}

/** The named paths that are images, resolved against `cwd`. */
async function imagePaths(text: string, cwd: string): Promise<Array<{ given: string; file: string }>> {
  const images: Array<{ given: string; file: string }> = [];
  for (const { given, namedAsImage } of namedPaths(text)) {
    const file = path.resolve(cwd, given);
    if (namedAsImage || (await isImageFile(file))) images.push({ given, file });
  }
  return images;
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
  const named = await imagePaths(outcome.text, cwd);
  if (named.length > maxImagesPerCall) extracted.notes.push(overLimitNote(named.length));
  for (const [index, { given, file }] of named.entries()) {
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
