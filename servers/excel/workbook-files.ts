// Workbook files on disk: where a `filepath` argument points, and safe read-modify-write.
// Relative paths are relative to EXCEL_FILES_PATH (default the repository's media/); like the
// ppt server, a leading "media/" is dropped because the ground truth writes paths relative to
// the reference's working directory ("./media/x.xlsx" means <files dir>/x.xlsx). Absolute
// paths must lie inside the allowed roots. Calls on one file are serialised: the ground truth
// creates two worksheets of one workbook in parallel, which would otherwise lose one of them.
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type ExcelJS from 'exceljs';
import { allowedRoots, resolveAllowedPath } from '../shared/allowed-roots.js';
import { resolveOutputArgument, stripFileUri } from '../shared/task-paths.js';
import { addCharts, extractCharts, type PlacedChart } from './chart-parts.js';

function filesDir(env: NodeJS.ProcessEnv = process.env): string {
  const media = allowedRoots(env)[0] ?? path.resolve('media');
  const configured = env.EXCEL_FILES_PATH?.trim();
  return configured ? path.resolve(path.dirname(media), configured) : media;
}

/**
 * The workbook file a `filepath` argument names. A call with a task context always works on a
 * file inside the task's workspace ("/tmp/x.xlsx" → <workspace>/tmp/x.xlsx, "./media/x.xlsx" →
 * <workspace>/x.xlsx; servers/shared/task-paths.ts), so tasks never share a workbook.
 */
export function resolveWorkbookPath(input: string, extra?: { _meta?: unknown }, baseDir: string = filesDir()): string {
  if (stripFileUri(input.trim()) === '') throw new Error('filepath is empty: give an .xlsx file name, e.g. "report.xlsx"');
  const target = resolveOutputArgument(input, extra, (given) => resolveWithoutContext(given, baseDir));
  const extension = path.extname(target).toLowerCase();
  if (extension === '') return `${target}.xlsx`;
  if (extension !== '.xlsx') throw new Error(`filepath "${input}": this server reads and writes .xlsx workbooks, not ${extension}`);
  return target;
}

function resolveWithoutContext(input: string, baseDir: string): string {
  const raw = stripFileUri(input.trim());
  if (path.isAbsolute(raw)) return resolveAllowedPath(raw);
  const segments = path.normalize(raw).split(/[\\/]/);
  const relative = segments[0] === 'media' && segments.length > 1 ? segments.slice(1).join(path.sep) : segments.join(path.sep);
  return resolveAllowedPath(path.join(baseDir, relative));
}

const queues = new Map<string, Promise<unknown>>();

/** Runs `body` after every earlier call on the same file has finished. */
export function withFileLock<T>(file: string, body: () => Promise<T>): Promise<T> {
  const previous = queues.get(file) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(body);
  queues.set(file, next);
  void next
    .finally(() => {
      if (queues.get(file) === next) queues.delete(file);
    })
    .catch(() => undefined);
  return next;
}

/**
 * A new, empty workbook. exceljs is loaded at the first call, not at start: it is most of the
 * server's start-up CPU, and every `m3 run` starts this server whether a task uses it or not.
 */
export async function newWorkbook(): Promise<ExcelJS.Workbook> {
  const { default: exceljs } = await import('exceljs');
  return new exceljs.Workbook();
}

export async function loadWorkbook(file: string, argument: string): Promise<ExcelJS.Workbook> {
  if (!(await fileExists(file))) throw new Error(`workbook "${argument}" does not exist (${file}); create it with create_workbook first`);
  const workbook = await newWorkbook();
  try {
    await workbook.xlsx.readFile(file);
  } catch (error) {
    throw new Error(`cannot read workbook "${argument}" (${file}): ${(error as Error).message} — is it a valid .xlsx file?`);
  }
  return workbook;
}

export interface SaveOptions {
  /** Keep the charts of the file being replaced (default); false for a new workbook. */
  keepCharts?: boolean;
  /** Charts to add (create_chart). */
  addCharts?: PlacedChart[];
  /** A sheet renamed by this call: its charts follow it. */
  renamed?: { from: string; to: string };
}

/** The charts of the file on disk, moved to a renamed sheet when one was renamed. */
async function chartsToKeep(file: string, options: SaveOptions): Promise<PlacedChart[]> {
  if (options.keepCharts === false || !(await fileExists(file))) return [];
  const charts = await extractCharts(await readFile(file));
  const renamed = options.renamed;
  if (!renamed) return charts;
  const quoted = (name: string) => `'${name.replace(/'/g, "''")}'!`;
  return charts.map((chart) => ({
    sheet: chart.sheet === renamed.from ? renamed.to : chart.sheet,
    anchorXml: chart.anchorXml,
    chartXml: chart.chartXml.split(quoted(renamed.from)).join(quoted(renamed.to)),
  }));
}

/**
 * Writes through a temporary file and a rename, so a crash never leaves half a workbook.
 * exceljs drops charts, so the charts of the replaced file are written back (chart-parts.ts).
 */
export async function saveWorkbook(workbook: ExcelJS.Workbook, file: string, options: SaveOptions = {}): Promise<void> {
  // exceljs stores formulas without results; ask Excel to compute them when it opens the file.
  workbook.calcProperties.fullCalcOnLoad = true;
  const charts = [...(await chartsToKeep(file, options)), ...(options.addCharts ?? [])];
  const bytes = (await addCharts(Buffer.from(await workbook.xlsx.writeBuffer()), charts)).bytes;
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${randomUUID().slice(0, 8)}.tmp`);
  try {
    await writeFile(temporary, bytes);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw new Error(`cannot write workbook ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

export async function fileExists(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

export function sheetOf(workbook: ExcelJS.Workbook, name: string, file: string): ExcelJS.Worksheet {
  const sheet = workbook.getWorksheet(name);
  if (!sheet) {
    const names = workbook.worksheets.map((entry) => entry.name);
    throw new Error(`sheet "${name}" not found in ${path.basename(file)}; sheets: ${names.join(', ') || '(none)'}`);
  }
  return sheet;
}

/** Excel's rules for sheet names, checked before exceljs would fail less clearly. */
export function checkSheetName(name: string): void {
  if (name.length === 0 || name.length > 31) throw new Error(`sheet_name "${name}" must be 1 to 31 characters long`);
  if (/[[\]:*?/\\]/.test(name)) throw new Error(`sheet_name "${name}" may not contain any of [ ] : * ? / \\`);
}

/**
 * Read-modify-write of one workbook under its file lock: resolves `filepath` (task workspace
 * when the call has a context), loads it, runs `body`, and saves when `save` is true.
 */
export function withWorkbook<T>(
  filepath: string,
  extra: { _meta?: unknown } | undefined,
  save: boolean,
  body: (workbook: ExcelJS.Workbook, file: string) => T | Promise<T>,
): Promise<T> {
  const file = resolveWorkbookPath(filepath, extra);
  return withFileLock(file, async () => {
    const workbook = await loadWorkbook(file, filepath);
    const result = await body(workbook, file);
    if (save) await saveWorkbook(workbook, file);
    return result;
  });
}
