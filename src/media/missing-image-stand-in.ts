// `m3 run --placeholder-images`: when a task's image file is missing (the original dataset's
// images are not here), a stand-in PNG FILE is written and used in its place, for the servers
// (OCR, barcode, crop...) and the model alike. It is a pipeline check, never a score: the
// picture itself reads "PLACEHOLDER — <original file name>", and every record of the run says
// which tasks used one (prediction field below, run manifest, `m3 run` summary, `m3 report`).
// Not to be confused with the images-off ablation, which shows the model a blank instead of an
// image that exists: this module only stands in for a file that does not exist.
import { randomUUID } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

/** Prediction records of tasks that ran on stand-ins list the original image entries here. */
export const PREDICTION_PLACEHOLDER_FIELD = 'placeholder_images';

/**
 * The words the stand-in shows, for an original image entry such as `images/00170009.png`.
 * @internal Exported for its tests.
 */
export function standInLabel(originalEntry: string): string {
  return `PLACEHOLDER — ${path.basename(originalEntry)}`;
}

const width = 640;
const height = 480;

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);
}

function standInSvg(originalEntry: string): string {
  const name = escapeXml(path.basename(originalEntry));
  const font = 'font-family="DejaVu Sans, Liberation Sans, sans-serif"';
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">`,
    '<rect width="100%" height="100%" fill="#d9d9d9"/>',
    `<rect x="8" y="8" width="${width - 16}" height="${height - 16}" fill="none" stroke="#b00020" stroke-width="8"/>`,
    `<text x="${width / 2}" y="190" ${font} font-size="46" font-weight="bold" text-anchor="middle" fill="#b00020">PLACEHOLDER —</text>`,
    `<text x="${width / 2}" y="250" ${font} font-size="32" text-anchor="middle" fill="#111111">${name}</text>`,
    `<text x="${width / 2}" y="330" ${font} font-size="20" text-anchor="middle" fill="#333333">not the task's image: pipeline check only</text>`,
    '</svg>',
  ].join('');
}

/**
 * Writes the stand-in for `originalEntry` into `dir` under the original file name (so the
 * workspace copy keeps the name the ground truth's `./media/<name>` paths use) and returns its
 * path. The same name always gives the same bytes, so runs and resumes agree.
 */
export async function writeMissingImageStandIn(originalEntry: string, dir: string): Promise<string> {
  const base = path.basename(originalEntry);
  const file = path.join(dir, /\.png$/i.test(base) ? base : `${base}.png`);
  const png = await sharp(Buffer.from(standInSvg(originalEntry)))
    .png({ compressionLevel: 9 })
    .withMetadata({ exif: { IFD0: { ImageDescription: `${standInLabel(originalEntry)} (m3bench --placeholder-images)` } } })
    .toBuffer();
  mkdirSync(dir, { recursive: true });
  // Tasks sharing an image (00110004 and 00110005 use 00110003.png) may write it at once: a
  // rename is atomic, so a reader never sees half a file.
  const temporary = `${file}.${randomUUID()}.tmp`;
  writeFileSync(temporary, png);
  renameSync(temporary, file);
  return file;
}
