// create_chart of the reference (excel-mcp-server chart.py): a line, bar, pie, scatter or area
// chart from a data range whose first column holds the categories (x values for scatter) and
// whose first row holds the series titles, anchored at target_cell, 15 x 7.5 cm. The error
// messages are the reference's. Where the reference drew data from sheet_name even when
// data_range named another sheet, this server reads the sheet data_range names.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type ExcelJS from 'exceljs';
import { z } from 'zod';
import { guarded, jsonResult } from '../shared/tool-result.js';
import { RELATION_ID } from './chart-parts.js';
import { type ChartSpec, type ChartType, chartAnchorXml, chartTypes, chartXml } from './chart-xml.js';
import { type CellPosition, type CellRange, parseCell, parseRange } from './cells.js';
import { filepath } from './tools-workbook.js';
import { loadWorkbook, resolveWorkbookPath, saveWorkbook, withFileLock } from './workbook-files.js';

function chartTypeOf(given: string): ChartType {
  const type = chartTypes.find((known) => known === given.toLowerCase());
  if (!type) throw new Error(`Unsupported chart type: ${given}. Supported types: ${chartTypes.join(', ')}`);
  return type;
}

function sheetNamed(workbook: ExcelJS.Workbook, name: string, what: string): ExcelJS.Worksheet {
  const sheet = workbook.getWorksheet(name);
  if (!sheet) throw new Error(`Sheet '${name}'${what} not found`);
  return sheet;
}

/** "A1:C5" or "Sheet!A1:C5" / "'My Sheet'!A1:C5" → sheet and range, in the reference's words when invalid. */
function dataRangeOf(workbook: ExcelJS.Workbook, dataRange: string, sheetName: string): { sheet: ExcelJS.Worksheet; range: CellRange } {
  const bang = dataRange.lastIndexOf('!');
  const prefix =
    bang >= 0
      ? dataRange
          .slice(0, bang)
          .replace(/^'(.*)'$/, '$1')
          .replace(/''/g, "'")
      : undefined;
  const sheet = prefix === undefined ? sheetNamed(workbook, sheetName, '') : sheetNamed(workbook, prefix, ' referenced in data range');
  const cells = (bang >= 0 ? dataRange.slice(bang + 1) : dataRange).replace(/\$/g, '');
  const [start, end, ...rest] = cells.split(':');
  let range: CellRange;
  try {
    if (!start || !end || rest.length > 0) throw new Error(`"${dataRange}" is not a range like "A1:C10"`);
    range = parseRange(start, end);
  } catch (error) {
    throw new Error(`Invalid data range format: ${(error as Error).message}`);
  }
  if (range.end.column === range.start.column || range.end.row === range.start.row) {
    throw new Error(
      `Invalid data range format: "${dataRange}" needs a category column plus at least one data column, and a header row above at least one data row`,
    );
  }
  return { sheet, range };
}

function targetOf(targetCell: string): CellPosition {
  try {
    return parseCell(targetCell, 'target_cell');
  } catch {
    throw new Error(`Invalid target cell format: ${targetCell}`);
  }
}

interface ChartArgs {
  filepath: string;
  sheet_name: string;
  data_range: string;
  chart_type: string;
  target_cell: string;
  title: string;
  x_axis: string;
  y_axis: string;
}

async function createChart(args: ChartArgs, extra: { _meta?: unknown } | undefined) {
  const file = resolveWorkbookPath(args.filepath, extra);
  return withFileLock(file, async () => {
    const workbook = await loadWorkbook(file, args.filepath);
    const chartSheet = sheetNamed(workbook, args.sheet_name, '');
    const { sheet, range } = dataRangeOf(workbook, args.data_range, args.sheet_name);
    const type = chartTypeOf(args.chart_type);
    const anchor = targetOf(args.target_cell);
    const spec: ChartSpec = { type, dataSheet: sheet.name, range, title: args.title, xAxis: args.x_axis, yAxis: args.y_axis };
    await saveWorkbook(workbook, file, { addCharts: [{ sheet: chartSheet.name, anchorXml: chartAnchorXml(anchor, RELATION_ID), chartXml: chartXml(spec) }] });
    return jsonResult({
      message: `${type.charAt(0).toUpperCase()}${type.slice(1)} chart created successfully`,
      details: { type: args.chart_type, location: args.target_cell, data_range: args.data_range },
    });
  });
}

export function registerChartTool(server: McpServer): void {
  server.registerTool(
    'create_chart',
    {
      description:
        'Insert a chart built from a data range (first column: categories or x values; first row: series titles; one series per further column). ' +
        `chart_type: ${chartTypes.join(', ')}. The chart is anchored at target_cell.`,
      inputSchema: {
        filepath,
        sheet_name: z.string(),
        data_range: z.string(),
        chart_type: z.string(),
        target_cell: z.string(),
        title: z.string().default(''),
        x_axis: z.string().default(''),
        y_axis: z.string().default(''),
      },
    },
    (args, extra) => guarded(() => createChart(args, extra)),
  );
}
