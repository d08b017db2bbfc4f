// The bundled photos offered as samples on the page: the detection and OCR photos that
// `m3 assets pull` puts in media/assets/images/ (the same files the benchmark's tasks use).
// The page names a sample by its listed name only; a name is looked up in the list, never
// joined onto a path, so no request can reach another file.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

const sampleFolders = ['detection', 'ocr'];
const photo = /\.(jpe?g|png|webp)$/i;
const maxSamples = 12;

export interface Sample {
  /** `<folder>/<file>` under media/assets/images/. */
  name: string;
  file: string;
}

/** The sample photos present under `<root>/media/assets/images/` (none before `m3 assets pull`). */
export function listSamples(root: string): Sample[] {
  const base = path.join(root, 'media', 'assets', 'images');
  return sampleFolders
    .flatMap((folder) => {
      const dir = path.join(base, folder);
      if (!existsSync(dir)) return [];
      return readdirSync(dir, { withFileTypes: true })
        .filter((entry) => entry.isFile() && photo.test(entry.name))
        .map((entry) => ({ name: `${folder}/${entry.name}`, file: path.join(dir, entry.name) }));
    })
    .sort((a, b) => a.name.localeCompare(b.name))
    .slice(0, maxSamples);
}
