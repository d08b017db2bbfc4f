// A page's own files (src/demo/public/, src/view/public/) and the files both pages share
// (src/web/public/, e.g. dom.js), all served from the root. The set of servable files is read once
// at start (found from the repo root, so the built dist/ serves the same folder) and requests are looked
// up by exact name in that table: a path is never joined onto the file system, so `..`,
// encoded slashes and symlink tricks have nothing to reach.
import { readdirSync, readFileSync } from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { fromRepo } from '../config/paths.js';
import { securityHeaders } from './http-kit.js';

/** The files both pages load (dom.js), found from the repo root like the pages' own folders. */
export const sharedPublicDir = () => fromRepo('src', 'web', 'public');

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

interface StaticFile {
  body: Buffer;
  type: string;
}

export class StaticFiles {
  private readonly files = new Map<string, StaticFile>();

  /**
   * `dirs`: the page's folder first, then the shared ones. A name found in two folders is served
   * from the first (a page's own file wins: `npm run bench:view` serves an earlier page that had
   * its own dom.js).
   */
  constructor(dirs: readonly string[]) {
    for (const dir of dirs) {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const type = contentTypes[path.extname(entry.name).toLowerCase()];
        if (!entry.isFile() || !type || this.files.has(`/${entry.name}`)) continue;
        this.files.set(`/${entry.name}`, { body: readFileSync(path.join(dir, entry.name)), type });
      }
    }
    if (!this.files.has('/index.html')) throw new Error(`${dirs[0] ?? '(no folder)'}: the page (index.html) is missing`);
  }

  /** Serves `/` and `/<name>` for the files read at start; false when there is no such file. */
  serve(pathname: string, response: http.ServerResponse, method: string): boolean {
    const file = this.files.get(pathname === '/' ? '/index.html' : pathname);
    if (!file) return false;
    response.writeHead(200, {
      ...securityHeaders,
      'content-type': file.type,
      'content-length': file.body.length,
      'cache-control': 'no-cache',
    });
    response.end(method === 'HEAD' ? undefined : file.body);
    return true;
  }
}
