// The Excel server as a real child process over MCP stdio; workbooks are read back with exceljs.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolCaller } from '../support/tool-caller.js';
import { connectInProcess } from '../support/in-process-servers.js';

let client: Client;
let work: string;

const { call, ok } = toolCaller(() => client);

async function readBack(file: string): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(file);
  return workbook;
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'm3-excel-'));
  client = (await connectInProcess('excel', { env: { M3_ALLOWED_ROOTS: work, EXCEL_FILES_PATH: work } })).client;
});

afterAll(async () => {
  await client?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('excel server', () => {
  it('creates a workbook, adds sheets in parallel and writes ground-truth rows', async () => {
    const created = await ok('create_workbook', { filepath: './media/amoxicillin_word_frequency.xlsx' });
    const file = path.join(work, 'amoxicillin_word_frequency.xlsx');
    expect(created.filepath).toBe(file);
    // The GT runs these two in one parallel step: both sheets must survive.
    await Promise.all([
      ok('create_worksheet', { filepath: file, sheet_name: 'Products' }),
      ok('create_worksheet', { filepath: './media/amoxicillin_word_frequency.xlsx', sheet_name: 'Word Frequency' }),
    ]);
    const written = await ok('write_data_to_excel', {
      filepath: './media/amoxicillin_word_frequency.xlsx',
      sheet_name: 'Word Frequency',
      start_cell: 'A1',
      data: [
        ['Word', 'Frequency'],
        ['and', 2],
        ['inhibitors', 2],
        ['a', 1],
      ],
    });
    expect(written).toMatchObject({ range: 'A1:B4', rows: 4, columns: 2 });

    const workbook = await readBack(file);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Sheet1', 'Products', 'Word Frequency']);
    const sheet = workbook.getWorksheet('Word Frequency');
    expect(sheet?.getCell('A1').value).toBe('Word');
    expect(sheet?.getCell('B1').value).toBe('Frequency');
    expect(sheet?.getCell('A3').value).toBe('inhibitors');
    expect(sheet?.getCell('B4').value).toBe(1);
  });

  it('writes objects under a header row at start_cell, creating the sheet, and stores formulas', async () => {
    await ok('create_workbook', { filepath: 'food_reddit_wiki.xlsx' });
    await ok('write_data_to_excel', {
      filepath: 'food_reddit_wiki.xlsx',
      sheet_name: 'Food Data',
      start_cell: 'C3',
      data: [
        { food: 'Apple', comments: 1520 },
        { food: 'Orange', comments: 1380, note: 'citrus' },
        { food: 'Grape', comments: '960' },
      ],
    });
    await ok('write_data_to_excel', { filepath: 'food_reddit_wiki.xlsx', sheet_name: 'Food Data', start_cell: 'C8', data: ['Total', '=SUM(D4:D5)'] });
    const applied = await ok('apply_formula', {
      filepath: path.join(work, 'food_reddit_wiki.xlsx'),
      sheet_name: 'Food Data',
      cell: 'D9',
      formula: '=AVERAGE(D4:D5)',
    });
    expect(applied.formula).toBe('=AVERAGE(D4:D5)');

    const sheet = (await readBack(path.join(work, 'food_reddit_wiki.xlsx'))).getWorksheet('Food Data');
    expect([sheet?.getCell('C3').value, sheet?.getCell('D3').value, sheet?.getCell('E3').value]).toEqual(['food', 'comments', 'note']);
    expect([sheet?.getCell('C4').value, sheet?.getCell('D4').value, sheet?.getCell('E4').value]).toEqual(['Apple', 1520, null]);
    expect(sheet?.getCell('E5').value).toBe('citrus');
    expect(sheet?.getCell('D6').value).toBe('960'); // strings stay strings, as in openpyxl
    expect(sheet?.getCell('D8').formula).toBe('SUM(D4:D5)');
    expect(sheet?.getCell('D9').formula).toBe('AVERAGE(D4:D5)');
    expect(sheet?.getCell('A1').value).toBeNull();

    const read = await ok('read_data_from_excel', { filepath: 'food_reddit_wiki.xlsx', sheet_name: 'Food Data', start_cell: 'C3', end_cell: 'D5' });
    expect(read.rows).toEqual([
      ['food', 'comments'],
      ['Apple', 1520],
      ['Orange', 1380],
    ]);
    const all = await ok('read_data_from_excel', { filepath: 'food_reddit_wiki.xlsx', sheet_name: 'Food Data' });
    expect(all.range).toBe('A1:E9');
    expect(all.cells).toContainEqual({ address: 'D8', value: null, formula: '=SUM(D4:D5)' });
  });

  it('formats ranges and reports metadata', async () => {
    await ok('create_workbook', { filepath: 'styled.xlsx', sheet_name: 'Report' });
    await ok('write_data_to_excel', {
      filepath: 'styled.xlsx',
      sheet_name: 'Report',
      data: [
        ['Name', 'Share'],
        ['a', 0.25],
      ],
    });
    await ok('format_range', {
      filepath: 'styled.xlsx',
      sheet_name: 'Report',
      start_cell: 'A1',
      end_cell: 'B1',
      bold: true,
      bg_color: '#FFFF00',
      border_style: 'thin',
      alignment: 'center',
    });
    await ok('format_range', { filepath: 'styled.xlsx', sheet_name: 'Report', start_cell: 'B2', number_format: '0.00%', italic: true });
    const sheet = (await readBack(path.join(work, 'styled.xlsx'))).getWorksheet('Report');
    expect(sheet?.getCell('B1').font?.bold).toBe(true);
    expect((sheet?.getCell('A1').fill as ExcelJS.FillPattern).fgColor?.argb).toBe('FFFFFF00');
    expect(sheet?.getCell('A1').border?.top?.style).toBe('thin');
    expect(sheet?.getCell('A1').alignment?.horizontal).toBe('center');
    expect(sheet?.getCell('B2').numFmt).toBe('0.00%');
    expect(sheet?.getCell('B2').font?.italic).toBe(true);
    expect(sheet?.getCell('A2').font?.bold).not.toBe(true);

    const metadata = await ok('get_workbook_metadata', { filepath: 'styled.xlsx', include_ranges: true });
    expect(metadata.sheets).toEqual([{ name: 'Report', used_range: 'A1:B2', rows: 2 }]);
  });

  it('answers bad paths, sheets and formulas with clear errors', async () => {
    const missing = await call('write_data_to_excel', { filepath: 'never_created.xlsx', sheet_name: 'S', data: [[1]] });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain('create it with create_workbook first');
    const outside = await call('create_workbook', { filepath: '/tmp/cold_fever_drugs.xlsx' });
    expect(outside.isError).toBe(true);
    expect(outside.text).toContain('outside the allowed folders');
    const traversal = await call('create_workbook', { filepath: '../../../../etc/evil.xlsx' });
    expect(traversal.text).toContain('outside the allowed folders');
    const csv = await call('create_workbook', { filepath: 'table.csv' });
    expect(csv.text).toContain('not .csv');

    await ok('create_workbook', { filepath: 'errors.xlsx' });
    const duplicate = await call('create_worksheet', { filepath: 'errors.xlsx', sheet_name: 'Sheet1' });
    expect(duplicate.text).toContain('already exists');
    const badName = await call('create_worksheet', { filepath: 'errors.xlsx', sheet_name: 'a/b' });
    expect(badName.text).toContain('may not contain');
    const unsafe = await call('apply_formula', { filepath: 'errors.xlsx', sheet_name: 'Sheet1', cell: 'A1', formula: '=INDIRECT("B1")' });
    expect(unsafe.text).toContain('INDIRECT() is not allowed');
    const unbalanced = await call('validate_formula_syntax', { filepath: 'errors.xlsx', sheet_name: 'Sheet1', cell: 'A1', formula: '=SUM(A1:A3' });
    expect(unbalanced.text).toContain('not closed');
    const badCell = await call('apply_formula', { filepath: 'errors.xlsx', sheet_name: 'Sheet1', cell: 'A0', formula: '=1+1' });
    expect(badCell.text).toContain('outside the sheet');
    const noSheet = await call('read_data_from_excel', { filepath: 'errors.xlsx', sheet_name: 'Nope' });
    expect(noSheet.text).toContain('sheet "Nope" not found');
    await writeFile(path.join(work, 'fake.xlsx'), 'name,count\napple,3\n');
    const notXlsx = await call('get_workbook_metadata', { filepath: 'fake.xlsx' });
    expect(notXlsx.isError).toBe(true);
    expect(notXlsx.text).toContain('is it a valid .xlsx file?');
  });

  it('copies sheets and ranges, inserts and deletes rows and columns, deletes ranges with a shift', async () => {
    const file = 'structure.xlsx';
    await ok('create_workbook', { filepath: file });
    await ok('write_data_to_excel', {
      filepath: file,
      sheet_name: 'Sheet1',
      data: [
        ['Region', 'Units', 'Note'],
        ['North', 4, 'x'],
        ['South', 6, 'y'],
        ['North', 2, 'z'],
      ],
    });
    await ok('merge_cells', { filepath: file, sheet_name: 'Sheet1', start_cell: 'E1', end_cell: 'F1' });
    expect(await ok('copy_worksheet', { filepath: file, source_sheet: 'Sheet1', target_sheet: 'Copy' })).toMatchObject({
      message: "Sheet 'Sheet1' copied to 'Copy'",
    });
    expect(await ok('get_merged_cells', { filepath: file, sheet_name: 'Copy' })).toEqual({ sheet_name: 'Copy', merged_ranges: ['E1:F1'] });
    await ok('insert_rows', { filepath: file, sheet_name: 'Copy', start_row: 2 });
    await ok('delete_sheet_columns', { filepath: file, sheet_name: 'Copy', start_col: 3, count: 1 });
    await ok('copy_range', { filepath: file, sheet_name: 'Sheet1', source_start: 'A1', source_end: 'B2', target_start: 'H10' });
    await ok('delete_range', { filepath: file, sheet_name: 'Sheet1', start_cell: 'A2', end_cell: 'B2' });
    const workbook = await readBack(path.join(work, file));
    const copy = workbook.getWorksheet('Copy');
    expect([copy?.getCell('A1').value, copy?.getCell('A2').value, copy?.getCell('A3').value, copy?.getCell('C1').value]).toEqual([
      'Region',
      null,
      'North',
      null,
    ]);
    const original = workbook.getWorksheet('Sheet1');
    expect([original?.getCell('H10').value, original?.getCell('I11').value]).toEqual(['Region', 4]);
    expect([original?.getCell('A2').value, original?.getCell('B3').value, original?.getCell('A4').value, original?.getCell('C2').value]).toEqual([
      'South',
      2,
      null,
      'x',
    ]);
    expect(await ok('validate_excel_range', { filepath: file, sheet_name: 'Sheet1', start_cell: 'A1', end_cell: 'Z99' })).toMatchObject({
      valid: true,
      within_data: false,
    });
    const invalid = await call('insert_rows', { filepath: file, sheet_name: 'Nope', start_row: 1 });
    expect(invalid.text).toContain('sheet "Nope" not found');
  });

  it('creates a native table and the reference\'s summary "pivot" sheet', async () => {
    const file = 'pivot.xlsx';
    await ok('create_workbook', { filepath: file });
    await ok('write_data_to_excel', {
      filepath: file,
      sheet_name: 'Sheet1',
      data: [
        ['Region', 'Units'],
        ['North', 4],
        ['South', 6],
        ['North', 2],
      ],
    });
    expect(await ok('create_table', { filepath: file, sheet_name: 'Sheet1', data_range: 'A1:B4', table_name: 'Sales' })).toMatchObject({ table_name: 'Sales' });
    const pivot = await ok('create_pivot_table', {
      filepath: file,
      sheet_name: 'Sheet1',
      data_range: 'A1:B4',
      rows: ['Region'],
      values: ['Units'],
      agg_func: 'sum',
    });
    expect(pivot).toMatchObject({ message: 'Summary table created successfully', details: { pivot_sheet: 'Sheet1_pivot', aggregation: 'sum' } });
    const workbook = await readBack(path.join(work, file));
    const summary = workbook.getWorksheet('Sheet1_pivot');
    expect([1, 2, 3].map((row) => [summary?.getCell(row, 1).value, summary?.getCell(row, 2).value])).toEqual([
      ['Region', 'Units (sum)'],
      ['North', 6],
      ['South', 6],
    ]);
    expect(Object.keys((workbook.getWorksheet('Sheet1') as unknown as { tables: object }).tables)).toContain('Sales');
    const badField = await call('create_pivot_table', { filepath: file, sheet_name: 'Sheet1', data_range: 'A1:B4', rows: ['Country'], values: ['Units'] });
    expect(badField.text).toContain("Invalid row field 'Country'. Available fields: Region, Units");
    expect(await ok('get_data_validation_info', { filepath: file, sheet_name: 'Sheet1' })).toMatchObject({ validation_rules: [] });
  });
});
