// A1 addresses, ranges and value conversion between JSON arguments and exceljs cells.
import type ExcelJS from 'exceljs';

export interface CellPosition {
  row: number;
  column: number;
}

/** Excel's limits: 16384 columns (XFD) and 1048576 rows. */
const maxColumns = 16384;
const maxRows = 1048576;

export function parseCell(address: string, argument: string): CellPosition {
  const match = /^\$?([A-Za-z]{1,3})\$?(\d{1,7})$/.exec(address.trim());
  if (!match) throw new Error(`${argument} "${address}" is not a cell address like "A1" or "C12"`);
  const letters = (match[1] ?? '').toUpperCase();
  const column = [...letters].reduce((total, letter) => total * 26 + (letter.charCodeAt(0) - 64), 0);
  const row = Number(match[2]);
  if (row < 1 || row > maxRows || column > maxColumns) {
    throw new Error(`${argument} "${address}" is outside the sheet (columns A..XFD, rows 1..${maxRows})`);
  }
  return { row, column };
}

function columnLetters(column: number): string {
  let letters = '';
  for (let rest = column; rest > 0; rest = Math.floor((rest - 1) / 26)) {
    letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  }
  return letters;
}

export function toAddress(position: CellPosition): string {
  return `${columnLetters(position.column)}${position.row}`;
}

export interface CellRange {
  start: CellPosition;
  end: CellPosition;
}

/** Parses start (and optional end) cells, accepting "A1:C3" in start_cell as well. */
export function parseRange(startCell: string, endCell: string | null | undefined, fallbackEnd?: CellPosition): CellRange {
  const [first, second] = startCell.includes(':') && !endCell ? startCell.split(':') : [startCell, endCell ?? undefined];
  const start = parseCell(first ?? '', 'start_cell');
  const end = second ? parseCell(second, 'end_cell') : (fallbackEnd ?? start);
  if (end.row < start.row || end.column < start.column) {
    throw new Error(`range ${toAddress(start)}:${toAddress(end)} is reversed: end_cell must be below and to the right of start_cell`);
  }
  return { start, end };
}

export function rangeLabel(range: CellRange): string {
  return `${toAddress(range.start)}:${toAddress(range.end)}`;
}

export type JsonCell = string | number | boolean | null;

/** JSON value → cell value. Strings starting with "=" are formulas (as openpyxl treats them). */
export function toCellValue(value: unknown): ExcelJS.CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return value.startsWith('=') && value.length > 1 ? { formula: value.slice(1) } : value;
  return JSON.stringify(value);
}

/** Cell value → JSON: formulas report their cached result (null until Excel computes it). */
export function fromCellValue(value: ExcelJS.CellValue): JsonCell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (value instanceof Date) return value.toISOString();
  if ('formula' in value || 'sharedFormula' in value) {
    const result = (value as { result?: unknown }).result;
    if (result === undefined || result === null) return null;
    return typeof result === 'object' ? fromCellValue(result as ExcelJS.CellValue) : (result as JsonCell);
  }
  if ('richText' in value) return value.richText.map((part) => part.text).join('');
  if ('hyperlink' in value) return typeof value.text === 'string' ? value.text : value.hyperlink;
  if ('error' in value) return value.error;
  return JSON.stringify(value);
}

export function formulaOf(value: ExcelJS.CellValue): string | undefined {
  if (value && typeof value === 'object' && 'formula' in value && typeof value.formula === 'string') return `=${value.formula}`;
  return undefined;
}

/** The last used row and column of a sheet (A1 for an empty sheet). */
export function usedEnd(sheet: ExcelJS.Worksheet): CellPosition {
  let row = 1;
  let column = 1;
  sheet.eachRow({ includeEmpty: false }, (current, rowNumber) => {
    current.eachCell({ includeEmpty: false }, (_cell, columnNumber) => {
      row = Math.max(row, rowNumber);
      column = Math.max(column, columnNumber);
    });
  });
  return { row, column };
}
