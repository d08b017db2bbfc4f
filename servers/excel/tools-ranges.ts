// Range tools of the reference (excel-mcp-server): copy_range, delete_range, create_table and
// create_pivot_table. As in the reference, the "pivot table" is a computed summary sheet
// (<sheet>_pivot: one row per combination of the row fields, one aggregated column per value
// field, formatted as a table), not an Excel PivotTable cache. create_chart is in tools-chart.ts.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type ExcelJS from 'exceljs';
import { z } from 'zod';
import { guarded, jsonResult } from '../shared/tool-result.js';
import { type CellRange, fromCellValue, parseCell, parseRange, rangeLabel, usedEnd } from './cells.js';
import { filepath } from './tools-workbook.js';
import { sheetOf, withWorkbook } from './workbook-files.js';

const sheetName = z.string().min(1);

function parseRangeText(text: string, argument: string): CellRange {
  const [start, end, ...rest] = text.replace(/\$/g, '').split(':');
  if (!start || rest.length > 0) throw new Error(`${argument} "${text}" is not a range like "A1:C10"`);
  return parseRange(start, end);
}

function copyCells(from: ExcelJS.Worksheet, range: CellRange, to: ExcelJS.Worksheet, target: { row: number; column: number }): void {
  // Read everything first: source and target may overlap on one sheet.
  const cells: Array<{ row: number; column: number; value: ExcelJS.CellValue; style: Partial<ExcelJS.Style> }> = [];
  for (let row = range.start.row; row <= range.end.row; row += 1) {
    for (let column = range.start.column; column <= range.end.column; column += 1) {
      const cell = from.getCell(row, column);
      cells.push({ row: row - range.start.row, column: column - range.start.column, value: cell.value, style: { ...cell.style } });
    }
  }
  for (const cell of cells) {
    const destination = to.getCell(target.row + cell.row, target.column + cell.column);
    destination.value = cell.value;
    destination.style = cell.style;
  }
}

function shiftOut(sheet: ExcelJS.Worksheet, range: CellRange, direction: 'up' | 'left'): void {
  const end = usedEnd(sheet);
  const height = range.end.row - range.start.row + 1;
  const width = range.end.column - range.start.column + 1;
  if (direction === 'up') {
    for (let column = range.start.column; column <= range.end.column; column += 1) {
      for (let row = range.start.row; row <= end.row; row += 1) {
        const source = row + height <= end.row ? sheet.getCell(row + height, column) : undefined;
        sheet.getCell(row, column).value = source ? source.value : null;
      }
    }
    return;
  }
  for (let row = range.start.row; row <= range.end.row; row += 1) {
    for (let column = range.start.column; column <= end.column; column += 1) {
      const source = column + width <= end.column ? sheet.getCell(row, column + width) : undefined;
      sheet.getCell(row, column).value = source ? source.value : null;
    }
  }
}

function registerCopyDeleteTools(server: McpServer): void {
  server.registerTool(
    'copy_range',
    {
      description: 'Copy the values and styles of source_start:source_end to target_start, on the same sheet or on target_sheet.',
      inputSchema: {
        filepath,
        sheet_name: sheetName,
        source_start: z.string().min(1),
        source_end: z.string().min(1),
        target_start: z.string().min(1),
        target_sheet: z.string().nullish(),
      },
    },
    (args, extra) =>
      guarded(() =>
        withWorkbook(args.filepath, extra, true, (workbook, file) => {
          const range = parseRange(args.source_start, args.source_end);
          copyCells(
            sheetOf(workbook, args.sheet_name, file),
            range,
            sheetOf(workbook, args.target_sheet ?? args.sheet_name, file),
            parseCell(args.target_start, 'target_start'),
          );
          return jsonResult({
            message: 'Range copied successfully',
            source: rangeLabel(range),
            target_sheet: args.target_sheet ?? args.sheet_name,
            target_start: args.target_start,
          });
        }),
      ),
  );

  server.registerTool(
    'delete_range',
    {
      description: 'Delete the cells of start_cell:end_cell and shift the cells below up (shift_direction "up") or the cells to the right left ("left").',
      inputSchema: { filepath, sheet_name: sheetName, start_cell: z.string().min(1), end_cell: z.string().min(1), shift_direction: z.string().default('up') },
    },
    (args, extra) =>
      guarded(async () => {
        if (args.shift_direction !== 'up' && args.shift_direction !== 'left')
          throw new Error(`shift_direction "${args.shift_direction}" must be "up" or "left"`);
        const direction = args.shift_direction;
        return withWorkbook(args.filepath, extra, true, (workbook, file) => {
          const range = parseRange(args.start_cell, args.end_cell);
          shiftOut(sheetOf(workbook, args.sheet_name, file), range, direction);
          return jsonResult({ message: `Range ${rangeLabel(range)} deleted successfully` });
        });
      }),
  );
}

/** The header row and the data rows of a range, as JSON values. */
function readTable(sheet: ExcelJS.Worksheet, range: CellRange): { headers: string[]; rows: Array<Array<ReturnType<typeof fromCellValue>>> } {
  const values: Array<Array<ReturnType<typeof fromCellValue>>> = [];
  for (let row = range.start.row; row <= range.end.row; row += 1) {
    const line: Array<ReturnType<typeof fromCellValue>> = [];
    for (let column = range.start.column; column <= range.end.column; column += 1) line.push(fromCellValue(sheet.getCell(row, column).value));
    values.push(line);
  }
  const [header = [], ...rows] = values;
  const headers = header.map((value, index) => (value === null || value === '' ? `Column${index + 1}` : String(value)));
  if (new Set(headers).size !== headers.length) throw new Error(`the header row of ${rangeLabel(range)} has repeated names: ${headers.join(', ')}`);
  return { headers, rows };
}

function registerTableTool(server: McpServer): void {
  server.registerTool(
    'create_table',
    {
      description: 'Turn a range whose first row holds headers into a native Excel table with a style (default TableStyleMedium9).',
      inputSchema: {
        filepath,
        sheet_name: sheetName,
        data_range: z.string().min(1),
        table_name: z.string().nullish(),
        table_style: z.string().default('TableStyleMedium9'),
      },
    },
    (args, extra) =>
      guarded(() =>
        withWorkbook(args.filepath, extra, true, (workbook, file) => {
          const sheet = sheetOf(workbook, args.sheet_name, file);
          const range = parseRangeText(args.data_range, 'data_range');
          const { headers, rows } = readTable(sheet, range);
          const name =
            args.table_name ??
            `Table${workbook.worksheets.reduce((total, entry) => total + Object.keys((entry as unknown as { tables?: object }).tables ?? {}).length, 1)}`;
          if (!/^[A-Za-z_][A-Za-z0-9_.]*$/.test(name))
            throw new Error(`table_name "${name}" must start with a letter or "_" and hold only letters, digits, "_" and "."`);
          sheet.addTable({
            name,
            ref: rangeLabel({ start: range.start, end: range.start }),
            headerRow: true,
            style: { theme: args.table_style as ExcelJS.TableStyleProperties['theme'], showRowStripes: true },
            columns: headers.map((header) => ({ name: header, filterButton: true })),
            rows,
          });
          return jsonResult({ message: `Successfully created table '${name}' in sheet '${args.sheet_name}'.`, table_name: name, range: rangeLabel(range) });
        }),
      ),
  );
}

type Aggregate = (numbers: number[]) => number;
const aggregates: Record<string, Aggregate> = {
  sum: (numbers) => numbers.reduce((total, value) => total + value, 0),
  mean: (numbers) => (numbers.length === 0 ? 0 : numbers.reduce((total, value) => total + value, 0) / numbers.length),
  average: (numbers) => (numbers.length === 0 ? 0 : numbers.reduce((total, value) => total + value, 0) / numbers.length),
  count: (numbers) => numbers.length,
  min: (numbers) => (numbers.length === 0 ? 0 : Math.min(...numbers)),
  max: (numbers) => (numbers.length === 0 ? 0 : Math.max(...numbers)),
};

function registerPivotTool(server: McpServer): void {
  server.registerTool(
    'create_pivot_table',
    {
      description:
        'Summarise a range (first row = field names) on a new sheet <sheet_name>_pivot: one row per combination of the `rows` fields, one column per `values` field aggregated with agg_func (sum, mean, count, min, max).',
      inputSchema: {
        filepath,
        sheet_name: sheetName,
        data_range: z.string().min(1),
        rows: z.array(z.string()).min(1),
        values: z.array(z.string()).min(1),
        columns: z.array(z.string()).nullish(),
        agg_func: z.string().default('mean'),
      },
    },
    (args, extra) =>
      guarded(async () => {
        const aggregate = aggregates[args.agg_func.toLowerCase()];
        if (!aggregate) throw new Error(`agg_func "${args.agg_func}" is not one of ${Object.keys(aggregates).join(', ')}`);
        return withWorkbook(args.filepath, extra, true, (workbook, file) => {
          const { headers, rows } = readTable(sheetOf(workbook, args.sheet_name, file), parseRangeText(args.data_range, 'data_range'));
          const index = (field: string, kind: string) => {
            const found = headers.findIndex((header) => header.toLowerCase() === field.trim().toLowerCase());
            if (found < 0) throw new Error(`Invalid ${kind} field '${field}'. Available fields: ${[...headers].sort().join(', ')}`);
            return found;
          };
          const rowFields = args.rows.map((field) => index(field, 'row'));
          const valueFields = args.values.map((field) => index(field, 'value'));
          for (const field of args.columns ?? []) index(field, 'column');
          const groups = new Map<string, { keys: string[]; rows: typeof rows }>();
          for (const row of rows) {
            const keys = rowFields.map((field) => String(row[field] ?? ''));
            const key = JSON.stringify(keys);
            const group = groups.get(key) ?? { keys, rows: [] };
            group.rows.push(row);
            groups.set(key, group);
          }
          const pivotName = `${args.sheet_name}_pivot`;
          const existing = workbook.getWorksheet(pivotName);
          if (existing) workbook.removeWorksheet(existing.id);
          const pivot = workbook.addWorksheet(pivotName);
          const header = [...rowFields.map((field) => headers[field] ?? ''), ...valueFields.map((field) => `${headers[field]} (${args.agg_func})`)];
          const body = [...groups.values()]
            .sort((a, b) => JSON.stringify(a.keys).localeCompare(JSON.stringify(b.keys)))
            .map((group) => [
              ...group.keys,
              ...valueFields.map((field) => aggregate(group.rows.map((row) => Number(row[field])).filter((value) => Number.isFinite(value)))),
            ]);
          pivot.addTable({
            name: `PivotTable_${pivotName.replace(/[^A-Za-z0-9_]/g, '_')}`,
            ref: 'A1',
            headerRow: true,
            style: { theme: 'TableStyleMedium9', showRowStripes: true },
            columns: header.map((name) => ({ name })),
            rows: body,
          });
          return jsonResult({
            message: 'Summary table created successfully',
            details: {
              source_range: args.data_range,
              pivot_sheet: pivotName,
              rows: args.rows,
              columns: args.columns ?? [],
              values: args.values,
              aggregation: args.agg_func,
            },
          });
        });
      }),
  );
}

export function registerRangeTools(server: McpServer): void {
  registerCopyDeleteTools(server);
  registerTableTool(server);
  registerPivotTool(server);
}
