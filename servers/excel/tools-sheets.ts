// Sheet structure tools of the reference (excel-mcp-server): copy_worksheet, insert/delete rows
// and columns, get_merged_cells, validate_excel_range, get_data_validation_info. Messages use
// the reference's wording; answers are JSON like the rest of this server.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type ExcelJS from 'exceljs';
import { z } from 'zod';
import { guarded, jsonResult } from '../shared/tool-result.js';
import { parseRange, rangeLabel, usedEnd } from './cells.js';
import { filepath } from './tools-workbook.js';
import { checkSheetName, sheetOf, withWorkbook } from './workbook-files.js';

const sheetName = z.string().min(1);

function mergedRanges(sheet: ExcelJS.Worksheet): string[] {
  return (sheet.model as { merges?: string[] }).merges ?? [];
}
const count = z.number().int().min(1).default(1);

function registerCopyTool(server: McpServer): void {
  server.registerTool(
    'copy_worksheet',
    { description: 'Duplicate a sheet (values, formulas, styles, merged cells) under a new name.', inputSchema: { filepath, source_sheet: sheetName, target_sheet: sheetName } },
    (args, extra) =>
      guarded(async () => {
        checkSheetName(args.target_sheet);
        return withWorkbook(args.filepath, extra, true, (workbook, file) => {
          const source = sheetOf(workbook, args.source_sheet, file);
          if (workbook.getWorksheet(args.target_sheet)) throw new Error(`sheet "${args.target_sheet}" already exists in ${args.filepath}`);
          const target = workbook.addWorksheet(args.target_sheet);
          // The sheet model carries rows, cells, styles and column widths; merges are not restored from it.
          target.model = { ...source.model, id: target.id, name: args.target_sheet } as typeof target.model;
          for (const range of mergedRanges(source)) target.mergeCells(range);
          return jsonResult({ message: `Sheet '${args.source_sheet}' copied to '${args.target_sheet}'`, sheets: workbook.worksheets.map((sheet) => sheet.name) });
        });
      }),
  );
}

function registerRowColumnTools(server: McpServer): void {
  const rowTools = [
    ['insert_rows', 'Insert empty rows before start_row (1-based); rows below move down.', true],
    ['delete_sheet_rows', 'Delete count rows from start_row (1-based); rows below move up.', false],
  ] as const;
  for (const [name, description, insert] of rowTools) {
    server.registerTool(name, { description, inputSchema: { filepath, sheet_name: sheetName, start_row: z.number().int().min(1), count } }, (args, extra) =>
      guarded(() =>
        withWorkbook(args.filepath, extra, true, (workbook, file) => {
          const sheet = sheetOf(workbook, args.sheet_name, file);
          if (insert) sheet.spliceRows(args.start_row, 0, ...Array.from({ length: args.count }, () => []));
          else sheet.spliceRows(args.start_row, args.count);
          const verb = insert ? 'Inserted' : 'Deleted';
          return jsonResult({ message: `${verb} ${args.count} row(s) starting at row ${args.start_row} in sheet '${args.sheet_name}'` });
        }),
      ),
    );
  }
  const columnTools = [
    ['insert_columns', 'Insert empty columns before start_col (1-based, 1 = A); columns to the right move right.', true],
    ['delete_sheet_columns', 'Delete count columns from start_col (1-based, 1 = A); columns to the right move left.', false],
  ] as const;
  for (const [name, description, insert] of columnTools) {
    server.registerTool(name, { description, inputSchema: { filepath, sheet_name: sheetName, start_col: z.number().int().min(1), count } }, (args, extra) =>
      guarded(() =>
        withWorkbook(args.filepath, extra, true, (workbook, file) => {
          const sheet = sheetOf(workbook, args.sheet_name, file);
          if (insert) sheet.spliceColumns(args.start_col, 0, ...Array.from({ length: args.count }, () => []));
          else sheet.spliceColumns(args.start_col, args.count);
          const verb = insert ? 'Inserted' : 'Deleted';
          return jsonResult({ message: `${verb} ${args.count} column(s) starting at column ${args.start_col} in sheet '${args.sheet_name}'` });
        }),
      ),
    );
  }
}

function registerInspectTools(server: McpServer): void {
  server.registerTool('get_merged_cells', { description: 'List the merged ranges of a sheet, e.g. ["A1:C1"].', inputSchema: { filepath, sheet_name: sheetName } }, (args, extra) =>
    guarded(() =>
      withWorkbook(args.filepath, extra, false, (workbook, file) => {
        const sheet = sheetOf(workbook, args.sheet_name, file);
        return jsonResult({ sheet_name: args.sheet_name, merged_ranges: mergedRanges(sheet) });
      }),
    ),
  );

  server.registerTool(
    'validate_excel_range',
    { description: 'Check that a range (start_cell, optional end_cell) is well formed and say whether it lies inside the used data area.', inputSchema: { filepath, sheet_name: sheetName, start_cell: z.string().min(1), end_cell: z.string().nullish() } },
    (args, extra) =>
      guarded(() =>
        withWorkbook(args.filepath, extra, false, (workbook, file) => {
          const sheet = sheetOf(workbook, args.sheet_name, file);
          const range = parseRange(args.start_cell, args.end_cell);
          const used = usedEnd(sheet);
          const inside = range.end.row <= used.row && range.end.column <= used.column;
          const dataRange = rangeLabel({ start: { row: 1, column: 1 }, end: used });
          return jsonResult({
            message: `Range '${rangeLabel(range)}' is valid${inside ? '' : ` (it extends past the data in ${dataRange})`}`,
            valid: true,
            range: rangeLabel(range),
            data_range: dataRange,
            within_data: inside,
          });
        }),
      ),
  );

  server.registerTool('get_data_validation_info', { description: 'List the data-validation rules (drop-down lists, number limits) of a sheet.', inputSchema: { filepath, sheet_name: sheetName } }, (args, extra) =>
    guarded(() =>
      withWorkbook(args.filepath, extra, false, (workbook, file) => {
        const sheet = sheetOf(workbook, args.sheet_name, file);
        const model = (sheet as unknown as { dataValidations?: { model?: Record<string, Record<string, unknown>> } }).dataValidations?.model ?? {};
        const rules = Object.entries(model).map(([range, rule]) => ({
          range,
          type: rule.type,
          operator: rule.operator ?? null,
          allow_blank: rule.allowBlank ?? false,
          formulae: rule.formulae ?? [],
          ...(rule.prompt ? { prompt: rule.prompt } : {}),
          ...(rule.error ? { error_message: rule.error } : {}),
        }));
        if (rules.length === 0) return jsonResult({ message: 'No data validation rules found in this worksheet', sheet_name: args.sheet_name, validation_rules: [] });
        return jsonResult({ sheet_name: args.sheet_name, validation_rules: rules });
      }),
    ),
  );
}

export function registerSheetStructureTools(server: McpServer): void {
  registerCopyTool(server);
  registerRowColumnTools(server);
  registerInspectTools(server);
}
