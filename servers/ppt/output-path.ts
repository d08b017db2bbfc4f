// Where save_presentation writes. Relative paths are taken relative to the output folder
// (PPT_OUTPUT_DIR, default the repository's media/). Ground-truth calls write paths relative
// to the reference's working directory, where media/ *was* that folder, so a leading
// "media/" is dropped: "./media/deck.pptx" and "deck.pptx" both mean <output dir>/deck.pptx,
// which keeps per-task output folders working. Absolute paths must lie inside the allowed roots.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { allowedRoots, resolveAllowedPath } from '../shared/allowed-roots.js';

export function outputDir(env: NodeJS.ProcessEnv = process.env): string {
  const roots = allowedRoots(env);
  const media = roots[0] ?? path.resolve('media');
  const configured = env.PPT_OUTPUT_DIR?.trim();
  return configured ? path.resolve(path.dirname(media), configured) : media;
}

function stripFileUri(input: string): string {
  if (!input.startsWith('file://')) return input;
  try {
    return fileURLToPath(input);
  } catch {
    return input.slice('file://'.length); // "file://./media/x.pptx" is relative, not a valid URI
  }
}

export function resolveOutputFile(input: string, baseDir: string = outputDir()): string {
  const raw = stripFileUri(input.trim());
  if (raw === '') throw new Error('file_path is empty: give a .pptx file name, e.g. "report.pptx"');
  if (path.isAbsolute(raw)) return resolveAllowedPath(raw);
  const normalized = path.normalize(raw);
  const segments = normalized.split(/[\\/]/);
  const relative = segments[0] === 'media' && segments.length > 1 ? segments.slice(1).join(path.sep) : normalized;
  return resolveAllowedPath(path.join(baseDir, relative));
}
