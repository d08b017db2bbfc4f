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
    {
      description: 'Duplicate a sheet (values, formulas, styles, merged cells) under a new name.',
      inputSchema: { filepath, source_sheet: sheetName, target_sheet: sheetName },
    },
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
          return jsonResult({
            message: `Sheet '${args.source_sheet}' copied to '${args.target_sheet}'`,
            sheets: workbook.worksheets.map((sheet) => sheet.name),
          });
        });
      }),
  );
}

// insert_rows, delete_sheet_rows, insert_columns, delete_sheet_columns: one splice each.
function runSplice(
  request: { filepath: string; sheet_name: string; axis: 'row' | 'column'; insert: boolean; start: number; count: number },
  extra: { _meta?: unknown } | undefined,
) {
  return guarded(() =>
    withWorkbook(request.filepath, extra, true, (workbook, file) => {
      const sheet = sheetOf(workbook, request.sheet_name, file);
      const empty = request.insert ? Array.from({ length: request.count }, () => []) : [];
      if (request.axis === 'row') sheet.spliceRows(request.start, request.insert ? 0 : request.count, ...empty);
      else sheet.spliceColumns(request.start, request.insert ? 0 : request.count, ...empty);
      return jsonResult({
        message: `${request.insert ? 'Inserted' : 'Deleted'} ${request.count} ${request.axis}(s) starting at ${request.axis} ${request.start} in sheet '${request.sheet_name}'`,
      });
    }),
  );
}

function registerRowColumnTools(server: McpServer): void {
  const rowInput = { filepath, sheet_name: sheetName, start_row: z.number().int().min(1), count };
  const columnInput = { filepath, sheet_name: sheetName, start_col: z.number().int().min(1), count };
  for (const [name, insert, description] of [
    ['insert_rows', true, 'Insert empty rows before start_row (1-based); rows below move down.'],
    ['delete_sheet_rows', false, 'Delete count rows from start_row (1-based); rows below move up.'],
  ] as const) {
    server.registerTool(name, { description, inputSchema: rowInput }, (args, extra) =>
      runSplice({ ...args, axis: 'row', insert, start: args.start_row }, extra),
    );
  }
  for (const [name, insert, description] of [
    ['insert_columns', true, 'Insert empty columns before start_col (1-based, 1 = A); columns to the right move right.'],
    ['delete_sheet_columns', false, 'Delete count columns from start_col (1-based, 1 = A); columns to the right move left.'],
  ] as const) {
    server.registerTool(name, { description, inputSchema: columnInput }, (args, extra) =>
      runSplice({ ...args, axis: 'column', insert, start: args.start_col }, extra),
    );
  }
}

function registerInspectTools(server: McpServer): void {
  server.registerTool(
    'get_merged_cells',
    { description: 'List the merged ranges of a sheet, e.g. ["A1:C1"].', inputSchema: { filepath, sheet_name: sheetName } },
    (args, extra) =>
      guarded(() =>
        withWorkbook(args.filepath, extra, false, (workbook, file) => {
          const sheet = sheetOf(workbook, args.sheet_name, file);
          return jsonResult({ sheet_name: args.sheet_name, merged_ranges: mergedRanges(sheet) });
        }),
      ),
  );

  server.registerTool(
    'validate_excel_range',
    {
      description: 'Check that a range (start_cell, optional end_cell) is well formed and say whether it lies inside the used data area.',
      inputSchema: { filepath, sheet_name: sheetName, start_cell: z.string().min(1), end_cell: z.string().nullish() },
    },
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

  server.registerTool(
    'get_data_validation_info',
    { description: 'List the data-validation rules (drop-down lists, number limits) of a sheet.', inputSchema: { filepath, sheet_name: sheetName } },
    (args, extra) =>
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
          if (rules.length === 0)
            return jsonResult({ message: 'No data validation rules found in this worksheet', sheet_name: args.sheet_name, validation_rules: [] });
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
