// How the report shows a file: relative to the repository (posix separators), so report.html
// names no machine path. A file outside the repository is shown by its name only, marked as such.
import path from 'node:path';

export function shownPath(file: string, root: string): string {
  const relative = path.relative(root, path.resolve(root, file));
  if (relative === '') return '.';
  if (relative.startsWith('..') || path.isAbsolute(relative)) return `(outside the repository) ${path.basename(file)}`;
  return relative.split(path.sep).join('/');
}

/** Every mention of the repository folder in free text (a message, a note) made relative. */
export function withoutRepoPath(text: string, root: string): string {
  const folder = path.resolve(root);
  if (folder === path.parse(folder).root) return text;
  const escaped = folder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return text
    .split(`${folder}${path.sep}`)
    .join('')
    .replace(new RegExp(`${escaped}(?![\\w.-])`, 'g'), '.');
}
