// Workbook and worksheet tools: create, add/rename/delete sheets, metadata.
import { stat } from 'node:fs/promises';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { guarded, jsonResult } from '../shared/tool-result.js';
import { rangeLabel, usedEnd } from './cells.js';
import { checkSheetName, fileExists, loadWorkbook, newWorkbook, resolveWorkbookPath, saveWorkbook, sheetOf, withFileLock } from './workbook-files.js';

export const filepath = z.string().min(1).describe('Workbook path: relative to EXCEL_FILES_PATH (default media/) or absolute inside the allowed folders');

function registerCreateTools(server: McpServer): void {
  server.registerTool(
    'create_workbook',
    {
      description: 'Create a new .xlsx workbook with one sheet (default "Sheet1"). An existing file at the path is replaced.',
      inputSchema: { filepath, sheet_name: z.string().nullish() },
    },
    (args, extra) =>
      guarded(async () => {
        const file = resolveWorkbookPath(args.filepath, extra);
        const sheetName = args.sheet_name ?? 'Sheet1';
        checkSheetName(sheetName);
        return withFileLock(file, async () => {
          const replaced = await fileExists(file);
          const workbook = await newWorkbook();
          workbook.addWorksheet(sheetName);
          await saveWorkbook(workbook, file, { keepCharts: false });
          return jsonResult({
            message: `Created workbook at ${file}`,
            filepath: file,
            active_sheet: sheetName,
            ...(replaced ? { replaced_existing: true } : {}),
          });
        });
      }),
  );

  server.registerTool(
    'create_worksheet',
    { description: 'Add a sheet to an existing workbook.', inputSchema: { filepath, sheet_name: z.string().min(1) } },
    (args, extra) =>
      guarded(async () => {
        const file = resolveWorkbookPath(args.filepath, extra);
        checkSheetName(args.sheet_name);
        return withFileLock(file, async () => {
          const workbook = await loadWorkbook(file, args.filepath);
          if (workbook.getWorksheet(args.sheet_name)) throw new Error(`sheet "${args.sheet_name}" already exists in ${args.filepath}`);
          workbook.addWorksheet(args.sheet_name);
          await saveWorkbook(workbook, file);
          return jsonResult({ message: `Sheet ${args.sheet_name} created`, filepath: file, sheets: workbook.worksheets.map((sheet) => sheet.name) });
        });
      }),
  );
}

function registerSheetTools(server: McpServer): void {
  server.registerTool(
    'rename_worksheet',
    { description: 'Rename a sheet.', inputSchema: { filepath, old_name: z.string().min(1), new_name: z.string().min(1) } },
    (args, extra) =>
      guarded(async () => {
        const file = resolveWorkbookPath(args.filepath, extra);
        checkSheetName(args.new_name);
        return withFileLock(file, async () => {
          const workbook = await loadWorkbook(file, args.filepath);
          const sheet = sheetOf(workbook, args.old_name, file);
          if (workbook.getWorksheet(args.new_name)) throw new Error(`sheet "${args.new_name}" already exists in ${args.filepath}`);
          sheet.name = args.new_name;
          await saveWorkbook(workbook, file, { renamed: { from: args.old_name, to: args.new_name } });
          return jsonResult({ message: `Sheet renamed from ${args.old_name} to ${args.new_name}`, sheets: workbook.worksheets.map((entry) => entry.name) });
        });
      }),
  );

  server.registerTool(
    'delete_worksheet',
    { description: 'Remove a sheet (a workbook keeps at least one).', inputSchema: { filepath, sheet_name: z.string().min(1) } },
    (args, extra) =>
      guarded(async () => {
        const file = resolveWorkbookPath(args.filepath, extra);
        return withFileLock(file, async () => {
          const workbook = await loadWorkbook(file, args.filepath);
          const sheet = sheetOf(workbook, args.sheet_name, file);
          if (workbook.worksheets.length === 1) throw new Error(`cannot delete "${args.sheet_name}": it is the only sheet of ${args.filepath}`);
          workbook.removeWorksheet(sheet.id);
          await saveWorkbook(workbook, file);
          return jsonResult({ message: `Sheet ${args.sheet_name} deleted`, sheets: workbook.worksheets.map((entry) => entry.name) });
        });
      }),
  );
}

function registerMetadataTool(server: McpServer): void {
  server.registerTool(
    'get_workbook_metadata',
    {
      description: 'Sheets of a workbook, its size, and optionally the used range of each sheet.',
      inputSchema: { filepath, include_ranges: z.boolean().default(false) },
    },
    (args, extra) =>
      guarded(async () => {
        const file = resolveWorkbookPath(args.filepath, extra);
        return withFileLock(file, async () => {
          const workbook = await loadWorkbook(file, args.filepath);
          const info = await stat(file);
          const sheets = workbook.worksheets.map((sheet) => ({
            name: sheet.name,
            ...(args.include_ranges ? { used_range: rangeLabel({ start: { row: 1, column: 1 }, end: usedEnd(sheet) }), rows: sheet.actualRowCount } : {}),
          }));
          return jsonResult({ filepath: file, size_bytes: info.size, modified: info.mtime.toISOString(), sheets });
        });
      }),
  );
}

export function registerWorkbookTools(server: McpServer): void {
  registerCreateTools(server);
  registerSheetTools(server);
  registerMetadataTool(server);
}
