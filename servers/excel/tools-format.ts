// Formatting tools: font, fill, border, number format, alignment and merging of a range.
// Only the options the caller gives are applied, so formatting in steps does not undo
// earlier steps. Colours are hex RGB ("FF0000", "#ff0000") or ARGB ("FFFF0000").
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type ExcelJS from 'exceljs';
import { z } from 'zod';
import { guarded, jsonResult } from '../shared/tool-result.js';
import { type CellRange, parseRange, rangeLabel } from './cells.js';
import { filepath } from './tools-workbook.js';
import { loadWorkbook, resolveWorkbookPath, saveWorkbook, sheetOf, withFileLock } from './workbook-files.js';

const borderStyles = ['thin', 'medium', 'thick', 'dashed', 'dotted', 'double', 'hair', 'dashDot', 'dashDotDot', 'mediumDashed'] as const;
const horizontal = ['left', 'center', 'right', 'justify', 'fill', 'distributed'] as const;

const formatInput = {
  filepath,
  sheet_name: z.string().min(1),
  start_cell: z.string().min(1),
  end_cell: z.string().nullish(),
  bold: z.boolean().default(false),
  italic: z.boolean().default(false),
  underline: z.boolean().default(false),
  font_size: z.number().int().positive().nullish(),
  font_color: z.string().nullish(),
  bg_color: z.string().nullish(),
  border_style: z.enum(borderStyles).nullish(),
  border_color: z.string().nullish(),
  number_format: z.string().nullish().describe('Excel number format, e.g. "0.00%", "#,##0", "yyyy-mm-dd"'),
  alignment: z.enum(horizontal).nullish(),
  wrap_text: z.boolean().default(false),
  merge_cells: z.boolean().default(false),
  protection: z.record(z.string(), z.unknown()).nullish(),
  conditional_format: z.record(z.string(), z.unknown()).nullish(),
};
type FormatArgs = z.infer<z.ZodObject<typeof formatInput>>;

function toArgb(color: string, argument: string): string {
  const hex = color.trim().replace(/^#/, '');
  if (/^[0-9a-fA-F]{6}$/.test(hex)) return `FF${hex.toUpperCase()}`;
  if (/^[0-9a-fA-F]{8}$/.test(hex)) return hex.toUpperCase();
  throw new Error(`${argument} "${color}" is not a hex colour (expected "FF0000", "#FF0000" or ARGB "FFFF0000")`);
}

function fontOf(args: FormatArgs, current: Partial<ExcelJS.Font>): Partial<ExcelJS.Font> | undefined {
  const changes: Partial<ExcelJS.Font> = {};
  if (args.bold !== undefined && args.bold !== null) changes.bold = args.bold;
  if (args.italic !== undefined && args.italic !== null) changes.italic = args.italic;
  if (args.underline !== undefined && args.underline !== null) changes.underline = args.underline;
  if (args.font_size) changes.size = args.font_size;
  if (args.font_color) changes.color = { argb: toArgb(args.font_color, 'font_color') };
  return Object.keys(changes).length > 0 ? { ...current, ...changes } : undefined;
}

function applyFormat(cell: ExcelJS.Cell, args: FormatArgs): void {
  const font = fontOf(args, cell.font ?? {});
  if (font) cell.font = font;
  if (args.bg_color) cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: toArgb(args.bg_color, 'bg_color') } };
  if (args.border_style) {
    const side = { style: args.border_style, color: { argb: toArgb(args.border_color ?? '000000', 'border_color') } };
    cell.border = { top: side, left: side, bottom: side, right: side };
  }
  if (args.number_format) cell.numFmt = args.number_format;
  if (args.alignment || args.wrap_text) {
    cell.alignment = { ...cell.alignment, ...(args.alignment ? { horizontal: args.alignment } : {}), ...(args.wrap_text ? { wrapText: true } : {}) };
  }
}

async function editRange(
  args: { filepath: string; sheet_name: string; start_cell: string; end_cell?: string | null | undefined },
  extra: { _meta?: unknown } | undefined,
  edit: (sheet: ExcelJS.Worksheet, range: CellRange) => void,
): Promise<{ file: string; range: string }> {
  const file = resolveWorkbookPath(args.filepath, extra);
  const range = parseRange(args.start_cell, args.end_cell);
  return withFileLock(file, async () => {
    const workbook = await loadWorkbook(file, args.filepath);
    edit(sheetOf(workbook, args.sheet_name, file), range);
    await saveWorkbook(workbook, file);
    return { file, range: rangeLabel(range) };
  });
}

export function registerFormatTools(server: McpServer): void {
  server.registerTool(
    'format_range',
    {
      description:
        'Format a cell range: bold, italic, underline, font_size, font_color, bg_color, border_style (+ border_color), number_format, alignment, wrap_text, merge_cells.',
      inputSchema: formatInput,
    },
    (args, extra) =>
      guarded(async () => {
        if (args.protection || args.conditional_format) {
          throw new Error('protection and conditional_format are not supported by this server; format the range without them');
        }
        const done = await editRange(args, extra, (sheet, range) => {
          for (let row = range.start.row; row <= range.end.row; row += 1) {
            for (let column = range.start.column; column <= range.end.column; column += 1) applyFormat(sheet.getCell(row, column), args);
          }
          const singleCell = range.start.row === range.end.row && range.start.column === range.end.column;
          if (args.merge_cells && !singleCell) {
            sheet.mergeCells(range.start.row, range.start.column, range.end.row, range.end.column);
          }
        });
        return jsonResult({ message: `Range ${done.range} formatted`, filepath: done.file, range: done.range });
      }),
  );

  const mergeInput = { filepath, sheet_name: z.string().min(1), start_cell: z.string().min(1), end_cell: z.string().min(1) };

  server.registerTool('merge_cells', { description: 'Merge a cell range.', inputSchema: mergeInput }, (args, extra) =>
    guarded(async () => {
      const done = await editRange(args, extra, (sheet, range) => sheet.mergeCells(range.start.row, range.start.column, range.end.row, range.end.column));
      return jsonResult({ message: `Range ${done.range} merged`, filepath: done.file, range: done.range });
    }),
  );

  server.registerTool('unmerge_cells', { description: 'Unmerge a previously merged cell range.', inputSchema: mergeInput }, (args, extra) =>
    guarded(async () => {
      const done = await editRange(args, extra, (sheet, range) => sheet.unMergeCells(range.start.row, range.start.column, range.end.row, range.end.column));
      return jsonResult({ message: `Range ${done.range} unmerged`, filepath: done.file, range: done.range });
    }),
  );
}
