// The viewer's page made self-contained: its index.html with the stylesheet, chart.js and the
// page modules inlined (the modules bundled into one by esbuild, since a browser loads no module
// file from file://), and the run's data as a JSON script the fetch helper reads
// (globalThis.m3ViewBundle, src/view/public/view-kit.js).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import { fromRepo } from '../config/paths.js';
import { ConfigError } from '../errors/index.js';
import { sharedPublicDir } from '../web/static-files.js';

export interface BundleData {
  runId: string;
  /** API route (as the pages request it) → its JSON answer. */
  api: Record<string, unknown>;
  /** Image route → data: URL. */
  images: Record<string, string>;
  /** Every row of the run's task table with its search text, and the run's headline: the page queries them itself. */
  taskTable: { run: unknown; rows: unknown[] };
}

const publicDir = () => fromRepo('src', 'view', 'public');

/** Text safe inside a <script> element: no `</script` (or `<!--`) can end it early. */
const scriptSafe = (text: string) => text.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');

/**
 * The pages' shared files (src/web/public/dom.js) sit beside each page's own on the server, so a
 * page imports them as `./dom.js`: a sibling import the page's folder lacks is found there.
 */
const sharedModules: Plugin = {
  name: 'shared-public-modules',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^\.\/[\w.-]+\.js$/ }, (args) => {
      if (existsSync(path.join(args.resolveDir, args.path))) return undefined;
      const shared = path.join(sharedPublicDir(), args.path);
      return existsSync(shared) ? { path: shared } : undefined;
    });
  },
};

/** One esbuild bundle of `entry` for the browser, as text (the page loads no module file from file://). */
async function bundled(entry: string, format: 'esm' | 'iife'): Promise<string> {
  const result = await build({ entryPoints: [entry], bundle: true, format, platform: 'browser', write: false, logLevel: 'silent', plugins: [sharedModules] });
  const output = result.outputFiles[0];
  if (!output) throw new ConfigError(`m3 view --export: esbuild produced no bundle of ${path.relative(fromRepo(), entry)}`);
  return output.text;
}

/** The viewer's page modules, one ES module. */
const bundledModules = () => bundled(path.join(publicDir(), 'view.js'), 'esm');

/** The viewer's task query as a classic script that sets globalThis.m3BundleQuery (src/export/bundle-query.ts). */
const bundledQuery = () => bundled(fromRepo('src', 'export', 'bundle-query.ts'), 'iife');

function chartJs(): string {
  const entry = createRequire(import.meta.url).resolve('chart.js');
  return readFileSync(path.join(path.dirname(entry), 'chart.umd.min.js'), 'utf8');
}

/** Replaces exactly one match of `pattern` in `html`; the error names what the viewer page lost. */
function replaceOnce(html: string, pattern: RegExp, replacement: string, what: string): string {
  const matches = html.match(new RegExp(pattern.source, 'g')) ?? [];
  if (matches.length !== 1) throw new ConfigError(`m3 view --export: src/view/public/index.html has ${matches.length} ${what} (expected 1)`);
  return html.replace(pattern, () => replacement);
}

export async function buildBundleHtml(data: BundleData): Promise<string> {
  let html = readFileSync(path.join(publicDir(), 'index.html'), 'utf8');
  const css = readFileSync(path.join(publicDir(), 'view.css'), 'utf8');
  // JSON with every `<` escaped parses to the same value and cannot close the script element.
  const json = JSON.stringify(data).replace(/</g, '\\u003c');
  html = replaceOnce(html, /<link rel="stylesheet" href="\/view\.css">/, `<style>${css.replace(/<\/(style)/gi, '<\\/$1')}</style>`, 'view.css link');
  html = replaceOnce(
    html,
    /<script src="\/api\/vendor\/chart\.umd\.min\.js"><\/script>/,
    `<script>${scriptSafe(chartJs())}</script>\n  <script>globalThis.m3ViewBundle = ${json};</script>\n  <script>${scriptSafe(await bundledQuery())}</script>`,
    'chart.js script',
  );
  html = replaceOnce(
    html,
    /<script type="module" src="\/view\.js"><\/script>/,
    `<script type="module">${scriptSafe(await bundledModules())}</script>`,
    'view.js script',
  );
  return html.replace(/<title>([^<]*)<\/title>/, `<title>$1 · ${data.runId.replace(/[<&]/g, '')} (exported)</title>`);
}
