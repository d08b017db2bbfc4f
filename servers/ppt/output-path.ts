// Where save_presentation writes. Relative paths are taken relative to the output folder
// (PPT_OUTPUT_DIR, default the repository's media/). Ground-truth calls write paths relative
// to the reference's working directory, where media/ *was* that folder, so a leading
// "media/" is dropped: "./media/deck.pptx" and "deck.pptx" both mean <output dir>/deck.pptx,
// which keeps per-task output folders working. Absolute paths must lie inside the allowed roots.
// A call with a task context writes inside the task's workspace instead (servers/shared/task-paths.ts).
import path from 'node:path';
import { allowedRoots, resolveAllowedPath } from '../shared/allowed-roots.js';
import { resolveOutputArgument, stripFileUri } from '../shared/task-paths.js';

function outputDir(env: NodeJS.ProcessEnv = process.env): string {
  const roots = allowedRoots(env);
  const media = roots[0] ?? path.resolve('media');
  const configured = env.PPT_OUTPUT_DIR?.trim();
  return configured ? path.resolve(path.dirname(media), configured) : media;
}

export function resolveOutputFile(input: string, extra?: { _meta?: unknown }, baseDir: string = outputDir()): string {
  if (input.trim() === '') throw new Error('file_path is empty: give a .pptx file name, e.g. "report.pptx"');
  return resolveOutputArgument(input, extra, (given) => resolveWithoutContext(given, baseDir));
}

function resolveWithoutContext(input: string, baseDir: string): string {
  const raw = stripFileUri(input.trim());
  if (path.isAbsolute(raw)) return resolveAllowedPath(raw);
  const normalized = path.normalize(raw);
  const segments = normalized.split(/[\\/]/);
  const relative = segments[0] === 'media' && segments.length > 1 ? segments.slice(1).join(path.sep) : normalized;
  return resolveAllowedPath(path.join(baseDir, relative));
}
