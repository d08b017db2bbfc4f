// Cell data tools: write rows, read a range back, write and check formulas.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { guarded, jsonResult } from '../shared/tool-result.js';
import { formulaOf, fromCellValue, parseCell, parseRange, rangeLabel, toAddress, toCellValue, usedEnd } from './cells.js';
import { filepath } from './tools-workbook.js';
import { checkSheetName, loadWorkbook, resolveWorkbookPath, saveWorkbook, sheetOf, withFileLock } from './workbook-files.js';

const sheetName = z.string().min(1);
const previewRows = 10;
const formulaInput = { filepath, sheet_name: sheetName, cell: z.string().min(1), formula: z.string().min(1) };

/** Functions that reach outside the workbook (network, other files, code); never written. */
const unsafeFunctions = ['INDIRECT', 'HYPERLINK', 'WEBSERVICE', 'DGET', 'RTD', 'CALL', 'REGISTER.ID', 'EXEC', 'FILTERXML'];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Rows as given (list of lists), objects → header row + one row each, scalars → one row. */
function toRows(data: unknown[]): unknown[][] {
  if (data.every(Array.isArray)) return data as unknown[][];
  if (data.every(isPlainObject)) {
    const header = [...new Set(data.flatMap((item) => Object.keys(item)))];
    return [header, ...data.map((item) => header.map((key) => item[key] ?? null))];
  }
  if (data.every((item) => !Array.isArray(item) && !isPlainObject(item))) return [data];
  throw new Error('data must be a list of rows (lists), a list of objects (keys become the header row), or one list of values — not a mix');
}

/** Checks a formula; returns it without the leading "=". */
function checkFormula(formula: string): string {
  const body = formula.trim().replace(/^=/, '');
  if (body === '') throw new Error('formula is empty (expected e.g. "=SUM(A1:A10)")');
  let depth = 0;
  let inString = false;
  for (const char of body) {
    if (char === '"') inString = !inString;
    else if (!inString && char === '(') depth += 1;
    else if (!inString && char === ')') depth -= 1;
    if (depth < 0) throw new Error(`formula "${formula}": a ")" has no matching "("`);
  }
  if (inString) throw new Error(`formula "${formula}": a string literal is not closed (missing ")`);
  if (depth !== 0) throw new Error(`formula "${formula}": ${depth} "(" not closed`);
  const unsafe = unsafeFunctions.find((name) => new RegExp(`(^|[^A-Z0-9_.])${name.replace('.', '\\.')}\\s*\\(`, 'i').test(body));
  if (unsafe) throw new Error(`formula "${formula}": ${unsafe}() is not allowed (it reaches outside the workbook)`);
  return body;
}

function registerWriteTool(server: McpServer): void {
  server.registerTool(
    'write_data_to_excel',
    {
      description:
        'Write rows of values starting at start_cell (default A1). data: list of rows (lists), or list of objects (keys become a header row). Strings starting with "=" are formulas. The sheet is created if missing.',
      inputSchema: { filepath, sheet_name: sheetName, data: z.array(z.unknown()).min(1), start_cell: z.string().default('A1') },
    },
    (args, extra) =>
      guarded(async () => {
        const file = resolveWorkbookPath(args.filepath, extra);
        const start = parseCell(args.start_cell ?? 'A1', 'start_cell');
        const rows = toRows(args.data);
        checkSheetName(args.sheet_name);
        return withFileLock(file, async () => {
          const workbook = await loadWorkbook(file, args.filepath);
          const sheet = workbook.getWorksheet(args.sheet_name) ?? workbook.addWorksheet(args.sheet_name);
          let width = 0;
          rows.forEach((row, rowOffset) => {
            width = Math.max(width, row.length);
            row.forEach((value, columnOffset) => {
              sheet.getCell(start.row + rowOffset, start.column + columnOffset).value = toCellValue(value);
            });
          });
          await saveWorkbook(workbook, file);
          const end = { row: start.row + rows.length - 1, column: start.column + Math.max(width, 1) - 1 };
          return jsonResult({
            message: `Data written to ${args.sheet_name}`,
            filepath: file,
            range: rangeLabel({ start, end }),
            rows: rows.length,
            columns: width,
          });
        });
      }),
  );
}

function registerReadTool(server: McpServer): void {
  server.registerTool(
    'read_data_from_excel',
    {
      description:
        'Read cell values from start_cell (default A1) to end_cell (default the last used cell). Formula cells report their formula and cached result.',
      inputSchema: {
        filepath,
        sheet_name: sheetName,
        start_cell: z.string().default('A1'),
        end_cell: z.string().nullish(),
        preview_only: z.boolean().default(false),
      },
    },
    (args, extra) =>
      guarded(async () => {
        const file = resolveWorkbookPath(args.filepath, extra);
        return withFileLock(file, async () => {
          const sheet = sheetOf(await loadWorkbook(file, args.filepath), args.sheet_name, file);
          const range = parseRange(args.start_cell ?? 'A1', args.end_cell, usedEnd(sheet));
          const lastRow = args.preview_only ? Math.min(range.end.row, range.start.row + previewRows - 1) : range.end.row;
          const rows: unknown[][] = [];
          const cells: Array<{ address: string; value: unknown; formula?: string }> = [];
          for (let row = range.start.row; row <= lastRow; row += 1) {
            const values: unknown[] = [];
            for (let column = range.start.column; column <= range.end.column; column += 1) {
              const cell = sheet.getCell(row, column);
              const value = fromCellValue(cell.value);
              const formula = formulaOf(cell.value);
              values.push(formula && value === null ? formula : value);
              if (value !== null || formula) cells.push({ address: toAddress({ row, column }), value, ...(formula ? { formula } : {}) });
            }
            rows.push(values);
          }
          return jsonResult({
            filepath: file,
            sheet_name: args.sheet_name,
            range: rangeLabel({ start: range.start, end: { row: lastRow, column: range.end.column } }),
            rows,
            cells,
            ...(lastRow < range.end.row ? { truncated: true } : {}),
          });
        });
      }),
  );
}

function registerFormulaTools(server: McpServer): void {
  server.registerTool(
    'apply_formula',
    {
      description: 'Write a formula (e.g. "=SUM(B2:B10)") into a cell after checking its syntax. Excel computes the value when it opens the file.',
      inputSchema: formulaInput,
    },
    (args, extra) =>
      guarded(async () => {
        const file = resolveWorkbookPath(args.filepath, extra);
        const position = parseCell(args.cell, 'cell');
        const body = checkFormula(args.formula);
        return withFileLock(file, async () => {
          const workbook = await loadWorkbook(file, args.filepath);
          sheetOf(workbook, args.sheet_name, file).getCell(position.row, position.column).value = { formula: body };
          await saveWorkbook(workbook, file);
          return jsonResult({
            message: `Applied formula '=${body}' to cell ${toAddress(position)}`,
            filepath: file,
            cell: toAddress(position),
            formula: `=${body}`,
          });
        });
      }),
  );

  server.registerTool('validate_formula_syntax', { description: 'Check a formula without writing it.', inputSchema: formulaInput }, (args) =>
    guarded(async () => {
      parseCell(args.cell, 'cell');
      return jsonResult({ valid: true, formula: `=${checkFormula(args.formula)}`, cell: args.cell });
    }),
  );
}

export function registerDataTools(server: McpServer): void {
  registerWriteTool(server);
  registerReadTool(server);
  registerFormulaTools(server);
}
