// Images of a session on disk: uploads and the images tools returned. The type comes from the
// magic bytes (file-type), the name from the content (`<first 16 hex of sha256>.<ext of the
// detected type>`): a client's file name never becomes a path. Files live in the session's
// workspace `<uploads>/<session>/` , inside media/ so the local MCP servers may read
// them, and the only folder that session's tool calls may touch.
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import type { ImagePart } from '../core/content.js';
import { loadImageFile } from '../media/load-image.js';
import { prepareImage, type ImagePolicy } from '../media/prepare-image.js';
import { formatBytes, HttpError } from '../web/http-kit.js';
import type { PageImage } from './page-events.js';
import type { Session, SessionImage } from './sessions.js';

/** Types accepted as uploads, with the extension the stored file gets. */
const extensions: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/bmp': 'bmp',
  'image/tiff': 'tif',
};

export const imageIdPattern = /^[0-9a-f]{16}\.(png|jpg|webp|gif|bmp|tif)$/;
const maxPixels = 50_000_000;

export interface ImageStoreSettings {
  /** The repo root: display paths are relative to it (`./media/uploads/...`). */
  root: string;
  uploadsDir: string;
  maxUploadBytes: number;
  maxImagesPerSession: number;
  imagePolicy: ImagePolicy;
}

/** The folder of a session: its uploads, its tools' outputs, and the only files its calls may touch. */
export function sessionWorkspace(settings: Pick<ImageStoreSettings, 'uploadsDir'>, session: Pick<Session, 'id'>): string {
  return path.join(settings.uploadsDir, session.id);
}

export function displayPathOf(file: string, root: string): string {
  const relative = path.relative(root, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return file;
  return `./${relative.split(path.sep).join('/')}`;
}

export function toPageImage(image: SessionImage): PageImage {
  return { id: image.id, url: image.url, path: image.displayPath, width: image.width, height: image.height, mediaType: image.mediaType, source: image.source };
}

async function describe(bytes: Buffer, label: string): Promise<{ mediaType: string; ext: string; width: number; height: number }> {
  const detected = await fileTypeFromBuffer(bytes);
  const ext = detected ? extensions[detected.mime] : undefined;
  if (!detected || !ext) {
    throw new HttpError(
      415,
      `${label} is not a supported image (detected ${detected?.mime ?? 'unknown data'}); use PNG, JPEG, WebP, GIF, BMP or TIFF`,
      'not_an_image',
    );
  }
  let metadata: sharp.Metadata;
  try {
    metadata = await sharp(bytes, { limitInputPixels: maxPixels }).metadata();
  } catch (error) {
    throw new HttpError(415, `${label} could not be decoded as ${detected.mime}: ${(error as Error).message}`, 'corrupt_image');
  }
  return { mediaType: detected.mime, ext, width: metadata.width ?? 0, height: metadata.height ?? 0 };
}

/** Stores image bytes in the session (idempotent: the same bytes give the same id). */
export async function storeSessionImage(
  session: Session,
  bytes: Buffer,
  origin: { kind: 'upload' | 'tool'; source: string },
  settings: ImageStoreSettings,
): Promise<SessionImage> {
  const label = origin.kind === 'upload' ? 'the upload' : `the image from ${origin.source}`;
  if (bytes.length === 0) throw new HttpError(400, `${label} is empty`, 'empty_upload');
  if (bytes.length > settings.maxUploadBytes) {
    throw new HttpError(413, `${label} is too large: ${formatBytes(bytes.length)} (the limit is ${formatBytes(settings.maxUploadBytes)})`, 'too_large');
  }
  const facts = await describe(bytes, label);
  const id = `${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}.${facts.ext}`;
  const existing = session.images.get(id);
  if (existing) return existing;
  if (session.images.size >= settings.maxImagesPerSession) {
    throw new HttpError(409, `this session already holds ${session.images.size} images (the limit); start a new session`, 'too_many_images');
  }
  // Uploads go to the model later: prepare them once now, so a broken image is refused at upload
  // rather than mid-episode (the prepared copy is not kept; the file is read again per message).
  if (origin.kind === 'upload') {
    await prepareImage(bytes, `upload ${id}`, settings.imagePolicy).catch((error: unknown) => {
      throw new HttpError(415, `${label} cannot be prepared for the model: ${(error as Error).message}`, 'corrupt_image');
    });
  }
  const dir = sessionWorkspace(settings, session);
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, id);
  await writeFile(file, bytes);
  const displayPath = displayPathOf(file, settings.root);
  const image: SessionImage = {
    id,
    file,
    displayPath,
    url: `/api/sessions/${session.id}/images/${id}`,
    mediaType: facts.mediaType,
    width: facts.width,
    height: facts.height,
    bytes: bytes.length,
    kind: origin.kind,
    source: origin.source,
  };
  session.images.set(id, image);
  return image;
}

/** Saves the images a tool returned (base64 payloads of a tool_call_end event) into the session. */
export async function storeToolImages(
  session: Session,
  images: ReadonlyArray<{ data?: string }>,
  tool: string,
  settings: ImageStoreSettings,
): Promise<PageImage[]> {
  const stored: PageImage[] = [];
  for (const image of images) {
    if (!image.data) continue;
    try {
      stored.push(toPageImage(await storeSessionImage(session, Buffer.from(image.data, 'base64'), { kind: 'tool', source: tool }, settings)));
    } catch {
      // An image the page cannot show is still described in the result text; the episode goes on.
    }
  }
  return stored;
}

/** An upload as the model receives it (resized / re-encoded by the image policy), named by the path tools get. */
export async function toModelImage(image: SessionImage, policy: ImagePolicy): Promise<ImagePart> {
  const part = await loadImageFile(image.file, policy);
  return part.facts ? { ...part, facts: { ...part.facts, source: image.displayPath } } : part;
}
