// Serving a fixture of a tool that saves a file or returns an image: its generated asset (a
// labelled stand-in PDF or picture committed under fixtures/<server>/assets/) is written into
// the task's workspace at the place the real tool writes to, through the same confinement our
// servers use (servers/shared/allowed-roots.ts: media/ and M3_ALLOWED_ROOTS), typed by its bytes
// as servers/shared/download.ts types downloads. A later real call that reads the file (such as
// read_arxiv_paper after download_arxiv) then finds it where the server looks.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import { allowedRoots, resolveAllowedPath } from '../../servers/shared/allowed-roots.js';
import type { FixtureAsset } from './fixtures.js';

/** What a fixture's `{{saved_path}}` stands for in its result text. */
export const savedPathToken = '{{saved_path}}';

interface WrittenAsset {
  file: string;
  mimeType: string;
  data: Buffer;
}

/**
 * Writes the asset under `workspace/<saveAs>` and returns where it went. Throws when the target
 * leaves the workspace or the allowed roots, or when the bytes are not the type `saveAs` names.
 */
export async function writeFixtureAsset(
  asset: FixtureAsset & { source: string },
  workspace: string,
  roots: readonly string[] = allowedRoots(),
): Promise<WrittenAsset> {
  const root = resolveAllowedPath(workspace, roots);
  const target = resolveAllowedPath(path.join(root, asset.saveAs), roots);
  const relative = path.relative(root, target);
  if (relative.startsWith('..') || path.isAbsolute(relative)) throw new Error(`asset ${asset.saveAs} leaves the task workspace`);
  const data = await readFile(asset.source);
  const type = await fileTypeFromBuffer(data);
  if (!type || path.extname(target).slice(1).toLowerCase() !== type.ext) {
    throw new Error(`asset ${asset.file} holds ${type ? type.mime : 'bytes of no known type'}, which does not match ${asset.saveAs}`);
  }
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(target, data);
  return { file: target, mimeType: type.mime, data };
}
