// Checks the images the task files name against the image folder: present, an image at all,
// and of the type its name claims. The type comes from the bytes (file-type), never the name;
// a PNG-named JPEG still runs (media types are detected from bytes everywhere) but is reported.
// A missing image whose task has an image named after its id nearby gets a hint, which is how
// the reference's typo `images/000400002.png` (task 00040002) shows up.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileTypeFromFile } from 'file-type';
import type { FuzzyTask, GtTask } from '../tasks/schemas.js';
import { imagesOf } from './counts.js';

type ImageStatus = 'ok' | 'missing' | 'mistyped' | 'not-image';

export interface ImageCheck {
  /** The path as the task files write it. */
  ref: string;
  file: string;
  tasks: string[];
  status: ImageStatus;
  /** Media type found in the bytes. */
  detected?: string;
  hint?: string;
}

export interface ImageSummary {
  checks: ImageCheck[];
  /** Files in the image folder that no task names. */
  unreferenced: string[];
}

const typeByExtension: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.bmp': 'image/bmp',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
};

/**
 * `images/<rest>` and `./images/<rest>` live in the image folder; other relative paths beside it.
 * @internal Exported for its tests.
 */
export function imageFileFor(ref: string, imageDir: string): string {
  if (path.isAbsolute(ref)) return ref;
  const clean = ref.replace(/^\.\//, '');
  if (clean.startsWith('images/')) return path.join(imageDir, ...clean.slice('images/'.length).split('/'));
  return path.resolve(path.dirname(imageDir), clean);
}

function referencedImages(gt: readonly GtTask[], fuzzy: readonly FuzzyTask[]): Map<string, Set<string>> {
  const byRef = new Map<string, Set<string>>();
  for (const record of [...gt, ...fuzzy]) {
    for (const ref of imagesOf(record)) {
      const key = ref.replace(/^\.\//, '');
      byRef.set(key, (byRef.get(key) ?? new Set()).add(record.id));
    }
  }
  return byRef;
}

async function checkOne(ref: string, tasks: string[], imageDir: string): Promise<ImageCheck> {
  const file = imageFileFor(ref, imageDir);
  const base = { ref, file, tasks };
  if (!existsSync(file)) {
    const near = tasks
      .map((id) => path.join(path.dirname(file), `${id}${path.extname(file)}`))
      .find((candidate) => candidate !== file && existsSync(candidate));
    return near
      ? { ...base, status: 'missing', hint: `${path.basename(near)} is there: the task file's image name looks mistyped` }
      : { ...base, status: 'missing' };
  }
  const detected = (await fileTypeFromFile(file))?.mime;
  if (!detected?.startsWith('image/')) return { ...base, status: 'not-image', ...(detected ? { detected } : {}) };
  const claimed = typeByExtension[path.extname(file).toLowerCase()];
  return { ...base, status: claimed && claimed !== detected ? 'mistyped' : 'ok', detected };
}

function listFiles(dir: string, prefix = ''): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return listFiles(path.join(dir, entry.name), relative);
    return entry.isFile() && !entry.name.endsWith('.part') ? [relative] : [];
  });
}

export async function checkImages(gt: readonly GtTask[], fuzzy: readonly FuzzyTask[], imageDir: string): Promise<ImageSummary> {
  const byRef = referencedImages(gt, fuzzy);
  const checks: ImageCheck[] = [];
  for (const [ref, tasks] of [...byRef].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    checks.push(await checkOne(ref, [...tasks].sort(), imageDir));
  }
  const named = new Set(checks.map((check) => path.resolve(check.file)));
  const unreferenced = listFiles(imageDir).filter((relative) => !named.has(path.resolve(imageDir, relative)));
  return { checks, unreferenced };
}
