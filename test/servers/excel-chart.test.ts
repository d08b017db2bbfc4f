// create_chart on the Excel server as a real child process: the saved workbook still loads in
// exceljs with its data, the chart part is well-formed XML with the asked type, series ranges
// and title, the sheet's drawing references it, and later tool calls (which rewrite the file
// through exceljs, which drops charts) keep it.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectInProcess } from '../support/in-process-servers.js';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { child, childrenNamed, descendants, parseXml, type XmlElement } from '../../servers/paper-search/xml.js';
import { toolCaller } from '../support/tool-caller.js';

let client: Client;
let work: string;
const { call, ok } = toolCaller(() => client);

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'm3-excel-chart-'));
  client = (await connectInProcess('excel', { env: { M3_ALLOWED_ROOTS: work, EXCEL_FILES_PATH: work } })).client;
});

afterAll(async () => {
  await client?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

const rows = [
  ['Month', 'Sales', 'Costs'],
  ['Jan', 10, 7],
  ['Feb', 12, 8],
  ['Mar', 9, 6],
];

async function workbookWithData(name: string, sheet = 'Data'): Promise<string> {
  await ok('create_workbook', { filepath: name, sheet_name: sheet });
  await ok('write_data_to_excel', { filepath: name, sheet_name: sheet, start_cell: 'A1', data: rows });
  return path.join(work, name);
}

/** Every part of the package, and each XML part parsed (a parse error fails the test). */
async function parts(file: string): Promise<{ names: string[]; xml: (name: string) => Promise<XmlElement> }> {
  const zip = await JSZip.loadAsync(await readFile(file));
  return {
    names: Object.keys(zip.files),
    xml: async (name) => {
      const entry = zip.file(name);
      if (!entry) throw new Error(`${name} is not in the package`);
      return parseXml(await entry.async('string'));
    },
  };
}

function relTargets(rels: XmlElement, type: string): Array<{ id: string; target: string }> {
  return childrenNamed(rels, 'Relationship')
    .filter((rel) => rel.attributes.Type?.endsWith(`/${type}`))
    .map((rel) => ({ id: rel.attributes.Id ?? '', target: rel.attributes.Target ?? '' }));
}

function formulas(chart: XmlElement, tag: string): string[] {
  return descendants(chart, tag).flatMap((element) => descendants(element, 'c:f').map((f) => f.allText));
}

describe('excel create_chart', () => {
  it('writes a bar chart the sheet references, with series, categories and title from the range', async () => {
    const file = await workbookWithData('sales.xlsx');
    const answer = await ok('create_chart', {
      filepath: 'sales.xlsx',
      sheet_name: 'Data',
      data_range: 'A1:C4',
      chart_type: 'bar',
      target_cell: 'E2',
      title: 'Sales & costs',
      x_axis: 'Month',
      y_axis: 'EUR',
    });
    expect(answer).toEqual({ message: 'Bar chart created successfully', details: { type: 'bar', location: 'E2', data_range: 'A1:C4' } });

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(file);
    const sheet = workbook.getWorksheet('Data');
    expect(sheet?.getCell('A4').value).toBe('Mar');
    expect(sheet?.getCell('C3').value).toBe(8);

    const pkg = await parts(file);
    const types = await pkg.xml('[Content_Types].xml');
    const overrides = childrenNamed(types, 'Override').map((entry) => [entry.attributes.PartName, entry.attributes.ContentType]);
    expect(overrides).toContainEqual(['/xl/charts/chart1.xml', 'application/vnd.openxmlformats-officedocument.drawingml.chart+xml']);
    expect(overrides).toContainEqual(['/xl/drawings/drawing1.xml', 'application/vnd.openxmlformats-officedocument.drawing+xml']);

    const sheetXml = await pkg.xml('xl/worksheets/sheet1.xml');
    const drawingRef = child(sheetXml, 'drawing')?.attributes['r:id'];
    const drawingRel = relTargets(await pkg.xml('xl/worksheets/_rels/sheet1.xml.rels'), 'drawing');
    expect(drawingRel).toEqual([{ id: drawingRef, target: '../drawings/drawing1.xml' }]);
    const drawing = await pkg.xml('xl/drawings/drawing1.xml');
    const from = descendants(drawing, 'xdr:from')[0] as XmlElement;
    expect([child(from, 'xdr:col')?.allText, child(from, 'xdr:row')?.allText]).toEqual(['4', '1']);
    const chartRef = descendants(drawing, 'c:chart')[0]?.attributes['r:id'];
    expect(relTargets(await pkg.xml('xl/drawings/_rels/drawing1.xml.rels'), 'chart')).toEqual([{ id: chartRef, target: '../charts/chart1.xml' }]);

    const chart = await pkg.xml('xl/charts/chart1.xml');
    expect(descendants(chart, 'c:barChart')).toHaveLength(1);
    expect(descendants(chart, 'c:ser')).toHaveLength(2);
    expect(formulas(chart, 'c:tx').filter((f) => f.startsWith("'"))).toEqual(["'Data'!$B$1", "'Data'!$C$1"]);
    expect(formulas(chart, 'c:cat')).toEqual(["'Data'!$A$2:$A$4", "'Data'!$A$2:$A$4"]);
    expect(formulas(chart, 'c:val')).toEqual(["'Data'!$B$2:$B$4", "'Data'!$C$2:$C$4"]);
    const titles = descendants(chart, 'c:title').map((title) => descendants(title, 'a:t')[0]?.allText);
    expect(titles).toEqual(['Sales & costs', 'Month', 'EUR']);
  });

  it('writes scatter x/y values and pie charts, and keeps charts through later edits and a sheet rename', async () => {
    const file = await workbookWithData('keep.xlsx', "Q1 'a' data");
    await ok('create_chart', { filepath: 'keep.xlsx', sheet_name: "Q1 'a' data", data_range: 'A1:B4', chart_type: 'Pie', target_cell: 'D1' });
    await ok('create_worksheet', { filepath: 'keep.xlsx', sheet_name: 'Plots' });
    await ok('create_chart', { filepath: 'keep.xlsx', sheet_name: 'Plots', data_range: "'Q1 ''a'' data'!$A$1:$C$4", chart_type: 'scatter', target_cell: 'B2' });
    await ok('write_data_to_excel', { filepath: 'keep.xlsx', sheet_name: 'Plots', start_cell: 'A20', data: [['note']] });
    await ok('rename_worksheet', { filepath: 'keep.xlsx', old_name: "Q1 'a' data", new_name: 'Quarter' });

    const pkg = await parts(file);
    const charts = pkg.names.filter((name) => /^xl\/charts\/chart\d+\.xml$/.test(name)).sort();
    expect(charts).toHaveLength(2);
    const parsed = await Promise.all(charts.map((name) => pkg.xml(name)));
    const pie = parsed.find((chart) => descendants(chart, 'c:pieChart').length === 1) as XmlElement;
    const scatter = parsed.find((chart) => descendants(chart, 'c:scatterChart').length === 1) as XmlElement;
    expect(formulas(pie, 'c:val')).toEqual(["'Quarter'!$B$2:$B$4"]);
    expect(descendants(pie, 'c:title')).toEqual([]);
    expect(formulas(scatter, 'c:xVal')).toEqual(["'Quarter'!$A$2:$A$4", "'Quarter'!$A$2:$A$4"]);
    expect(formulas(scatter, 'c:yVal')).toEqual(["'Quarter'!$B$2:$B$4", "'Quarter'!$C$2:$C$4"]);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(file);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Quarter', 'Plots']);
    expect(workbook.getWorksheet('Plots')?.getCell('A20').value).toBe('note');
    // A replaced workbook starts without the old charts.
    await ok('create_workbook', { filepath: 'keep.xlsx' });
    expect((await parts(file)).names.filter((name) => name.startsWith('xl/charts/'))).toEqual([]);
  });

  it("answers bad sheets, ranges, types and anchors in the reference's words", async () => {
    await workbookWithData('bad.xlsx');
    const base = { filepath: 'bad.xlsx', sheet_name: 'Data', data_range: 'A1:C4', chart_type: 'line', target_cell: 'E2' };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ sheet_name: 'Nope' }, "Sheet 'Nope' not found"],
      [{ data_range: 'Other!A1:C4' }, "Sheet 'Other' referenced in data range not found"],
      [{ data_range: 'A1' }, 'Invalid data range format: "A1" is not a range like "A1:C10"'],
      [{ data_range: 'A1:A4' }, 'Invalid data range format: "A1:A4" needs a category column'],
      [{ chart_type: 'radar' }, 'Unsupported chart type: radar. Supported types: line, bar, pie, scatter, area'],
      [{ target_cell: 'here' }, 'Invalid target cell format: here'],
    ];
    for (const [change, message] of cases) {
      const answer = await call('create_chart', { ...base, ...change });
      expect({ change, isError: answer.isError, text: answer.text.slice(0, message.length) }).toEqual({ change, isError: true, text: message });
    }
    expect((await parts(path.join(work, 'bad.xlsx'))).names.filter((name) => name.startsWith('xl/charts/'))).toEqual([]);
  });
});
