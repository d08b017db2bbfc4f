// Structural slide content of the reference (tools/structural_tools.py, chart_tools.py,
// connector_tools.py): add_table, format_table_cell, add_shape, add_connector, add_chart and
// update_chart_data. Positions in inches, colours [r, g, b].
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { guarded, jsonResult } from '../shared/tool-result.js';
import { colorScheme } from './design.js';
import { type ChartElement, type Decks, type Slide, type SlideElement, slideAt, toHex } from './model.js';

const presentationId = z.string().nullish().describe('Presentation id; default the current (last created) presentation');
const rgb = z.array(z.number().int().min(0).max(255)).min(3).max(4);
const inches = z.number();

/** The reference's shape names (ppt_mcp_server.py add_shape_direct) → pptxgenjs shape names. */
const shapeTypes: Record<string, string> = {
  rectangle: 'rect',
  rounded_rectangle: 'roundRect',
  oval: 'ellipse',
  diamond: 'diamond',
  triangle: 'triangle',
  right_triangle: 'rtTriangle',
  pentagon: 'pentagon',
  hexagon: 'hexagon',
  heptagon: 'heptagon',
  octagon: 'octagon',
  star: 'star5',
  arrow: 'rightArrow',
  cloud: 'cloud',
  heart: 'heart',
  lightning_bolt: 'lightningBolt',
  sun: 'sun',
  moon: 'moon',
  smiley_face: 'smileyFace',
  no_symbol: 'noSmoking',
  flowchart_process: 'flowChartProcess',
  flowchart_decision: 'flowChartDecision',
  flowchart_data: 'flowChartInputOutput',
  flowchart_document: 'flowChartDocument',
};
const chartTypes: Record<string, ChartElement['chartType']> = {
  bar: 'bar',
  column: 'bar',
  line: 'line',
  pie: 'pie',
  area: 'area',
  doughnut: 'doughnut',
  scatter: 'line',
};
const legendPositions: Record<string, NonNullable<ChartElement['legendPosition']>> = { right: 'r', left: 'l', top: 't', bottom: 'b', corner: 'tr' };

function elementAt<K extends SlideElement['kind']>(slide: Slide, shapeIndex: number, kind: K): Extract<SlideElement, { kind: K }> {
  const element = slide.elements[shapeIndex];
  if (!element) throw new Error(`shape_index ${shapeIndex} is out of range: the slide has ${slide.elements.length} shapes (see get_slide_info)`);
  if (element.kind !== kind) throw new Error(`shape_index ${shapeIndex} is a ${element.kind}, not a ${kind}`);
  return element as Extract<SlideElement, { kind: K }>;
}

function registerTableTools(server: McpServer, decks: Decks): void {
  server.registerTool(
    'add_table',
    {
      description: 'Insert a table of rows x cols at left/top/width/height (inches); data fills it row by row; header_row styles the first row.',
      inputSchema: {
        slide_index: z.number().int(),
        rows: z.number().int().min(1).max(100),
        cols: z.number().int().min(1).max(50),
        left: inches,
        top: inches,
        width: inches,
        height: inches,
        data: z.array(z.array(z.string())).nullish(),
        header_row: z.boolean().default(true),
        header_font_size: z.number().int().default(12),
        body_font_size: z.number().int().default(10),
        header_bg_color: rgb.nullish(),
        body_bg_color: rgb.nullish(),
        border_color: rgb.nullish(),
        presentation_id: presentationId,
      },
    },
    (args, extra) =>
      guarded(async () => {
        const presentation = decks.of(extra).get(args.presentation_id);
        const slide = slideAt(presentation, args.slide_index);
        if ((args.data?.length ?? 0) > args.rows || (args.data ?? []).some((row) => row.length > args.cols))
          throw new Error(`data is larger than the table (${args.rows} rows x ${args.cols} cols)`);
        const cells = Array.from({ length: args.rows }, (_, row) => Array.from({ length: args.cols }, (_, col) => args.data?.[row]?.[col] ?? ''));
        slide.elements.push({
          kind: 'table',
          box: { left: args.left, top: args.top, width: args.width, height: args.height },
          cells,
          headerRow: args.header_row,
          headerFontSize: args.header_font_size,
          bodyFontSize: args.body_font_size,
          ...(args.header_bg_color ? { headerFill: toHex(args.header_bg_color) } : {}),
          ...(args.body_bg_color ? { bodyFill: toHex(args.body_bg_color) } : {}),
          ...(args.border_color ? { border: toHex(args.border_color) } : {}),
          cellStyles: {},
        });
        return jsonResult({ message: `Added table (${args.rows}x${args.cols}) to slide ${args.slide_index}`, shape_index: slide.elements.length - 1 });
      }),
  );

  server.registerTool(
    'format_table_cell',
    {
      description: 'Format one cell (row, col from 0) of the table at shape_index: font, colours, alignment.',
      inputSchema: {
        slide_index: z.number().int(),
        shape_index: z.number().int(),
        row: z.number().int().min(0),
        col: z.number().int().min(0),
        font_size: z.number().int().nullish(),
        font_name: z.string().nullish(),
        bold: z.boolean().nullish(),
        italic: z.boolean().nullish(),
        color: rgb.nullish(),
        bg_color: rgb.nullish(),
        alignment: z.string().nullish(),
        vertical_alignment: z.string().nullish(),
        presentation_id: presentationId,
      },
    },
    (args, extra) =>
      guarded(async () => {
        const table = elementAt(slideAt(decks.of(extra).get(args.presentation_id), args.slide_index), args.shape_index, 'table');
        if (args.row >= table.cells.length || args.col >= (table.cells[0]?.length ?? 0))
          throw new Error(`cell (${args.row}, ${args.col}) is outside the ${table.cells.length}x${table.cells[0]?.length ?? 0} table`);
        const align = args.alignment?.toLowerCase();
        if (align && !['left', 'center', 'right', 'justify'].includes(align))
          throw new Error(`alignment "${args.alignment}" is not one of left, center, right, justify`);
        const valign = args.vertical_alignment?.toLowerCase();
        if (valign && !['top', 'middle', 'bottom'].includes(valign))
          throw new Error(`vertical_alignment "${args.vertical_alignment}" is not one of top, middle, bottom`);
        const key = `${args.row},${args.col}`;
        table.cellStyles[key] = {
          ...table.cellStyles[key],
          ...(args.font_size ? { fontSize: args.font_size } : {}),
          ...(args.font_name ? { fontName: args.font_name } : {}),
          ...(typeof args.bold === 'boolean' ? { bold: args.bold } : {}),
          ...(typeof args.italic === 'boolean' ? { italic: args.italic } : {}),
          ...(args.color ? { color: toHex(args.color) } : {}),
          ...(args.bg_color ? { fill: toHex(args.bg_color) } : {}),
          ...(align ? { align: align as 'left' } : {}),
          ...(valign ? { valign: valign as 'top' } : {}),
        };
        return jsonResult({ message: `Formatted cell (${args.row}, ${args.col}) in table at shape index ${args.shape_index}` });
      }),
  );
}

function registerShapeTools(server: McpServer, decks: Decks): void {
  server.registerTool(
    'add_shape',
    {
      description: `Insert an auto shape (${Object.keys(shapeTypes).join(', ')}) at left/top/width/height (inches), optionally with centred text.`,
      inputSchema: {
        slide_index: z.number().int(),
        shape_type: z.string(),
        left: inches,
        top: inches,
        width: inches,
        height: inches,
        fill_color: rgb.nullish(),
        line_color: rgb.nullish(),
        line_width: z.number().nullish(),
        text: z.string().nullish(),
        font_size: z.number().int().nullish(),
        font_color: rgb.nullish(),
        presentation_id: presentationId,
      },
    },
    (args, extra) =>
      guarded(async () => {
        const shapeType = shapeTypes[args.shape_type.toLowerCase()];
        if (!shapeType) throw new Error(`Unsupported shape type: '${args.shape_type}'. Available shape types: ${Object.keys(shapeTypes).sort().join(', ')}`);
        const slide = slideAt(decks.of(extra).get(args.presentation_id), args.slide_index);
        slide.elements.push({
          kind: 'shape',
          box: { left: args.left, top: args.top, width: args.width, height: args.height },
          fill: toHex(args.fill_color) ?? '4472C4',
          shapeType,
          ...(args.line_color ? { line: toHex(args.line_color) } : {}),
          ...(args.line_width ? { lineWidth: args.line_width } : {}),
          ...(args.text ? { text: args.text } : {}),
          ...(args.font_size ? { fontSize: args.font_size } : {}),
          ...(args.font_color ? { fontColor: toHex(args.font_color) } : {}),
        });
        return jsonResult({ message: `Added ${args.shape_type} shape to slide ${args.slide_index}`, shape_index: slide.elements.length - 1 });
      }),
  );

  server.registerTool(
    'add_connector',
    {
      description: 'Draw a connector from (start_x, start_y) to (end_x, end_y) in inches; connector_type straight, elbow, curved or arrow.',
      inputSchema: {
        slide_index: z.number().int(),
        connector_type: z.string(),
        start_x: inches,
        start_y: inches,
        end_x: inches,
        end_y: inches,
        line_width: z.number().default(1),
        color: rgb.optional(),
        presentation_id: z.string().optional(),
      },
    },
    (args, extra) =>
      guarded(async () => {
        const type = args.connector_type.toLowerCase();
        if (!['straight', 'elbow', 'curved', 'arrow'].includes(type))
          throw new Error(`connector_type "${args.connector_type}" is not one of straight, elbow, curved, arrow`);
        const slide = slideAt(decks.of(extra).get(args.presentation_id), args.slide_index);
        const box = {
          left: Math.min(args.start_x, args.end_x),
          top: Math.min(args.start_y, args.end_y),
          width: Math.abs(args.end_x - args.start_x),
          height: Math.abs(args.end_y - args.start_y),
        };
        slide.elements.push({
          kind: 'line',
          box,
          flipH: args.end_x < args.start_x,
          flipV: args.end_y < args.start_y,
          color: toHex(args.color) ?? '000000',
          width: args.line_width,
          connectorType: type,
        });
        return jsonResult({ message: `Added ${type} connector to slide ${args.slide_index}`, shape_index: slide.elements.length - 1 });
      }),
  );
}

function registerChartTools(server: McpServer, decks: Decks): void {
  server.registerTool(
    'add_chart',
    {
      description: 'Insert a chart (bar, column, line, pie, area, doughnut) from categories and series at left/top/width/height (inches).',
      inputSchema: {
        slide_index: z.number().int(),
        chart_type: z.string(),
        left: inches,
        top: inches,
        width: inches,
        height: inches,
        categories: z.array(z.string()),
        series_names: z.array(z.string()),
        series_values: z.array(z.array(z.number())),
        has_legend: z.boolean().default(true),
        legend_position: z.string().default('right'),
        has_data_labels: z.boolean().default(false),
        title: z.string().nullish(),
        x_axis_title: z.string().nullish(),
        y_axis_title: z.string().nullish(),
        color_scheme: z.string().nullish(),
        presentation_id: presentationId,
      },
    },
    (args, extra) =>
      guarded(async () => {
        const chartType = chartTypes[args.chart_type.toLowerCase()];
        if (!chartType) throw new Error(`chart_type "${args.chart_type}" is not one of ${Object.keys(chartTypes).join(', ')}`);
        if (args.series_names.length !== args.series_values.length)
          throw new Error(`series_names has ${args.series_names.length} names but series_values ${args.series_values.length} lists`);
        const short = args.series_values.findIndex((values) => values.length !== args.categories.length);
        if (short >= 0) throw new Error(`series_values[${short}] has ${args.series_values[short]?.length} values for ${args.categories.length} categories`);
        const slide = slideAt(decks.of(extra).get(args.presentation_id), args.slide_index);
        const scheme = args.color_scheme ? colorScheme(args.color_scheme).scheme : undefined;
        slide.elements.push({
          kind: 'chart',
          box: { left: args.left, top: args.top, width: args.width, height: args.height },
          chartType,
          categories: args.categories,
          series: args.series_names.map((name, index) => ({ name, values: args.series_values[index] ?? [] })),
          showLegend: args.has_legend,
          legendPosition: legendPositions[args.legend_position.toLowerCase()] ?? 'r',
          dataLabels: args.has_data_labels,
          ...(args.title ? { title: args.title } : {}),
          ...(args.x_axis_title ? { xAxisTitle: args.x_axis_title } : {}),
          ...(args.y_axis_title ? { yAxisTitle: args.y_axis_title } : {}),
          ...(scheme ? { colors: [scheme.primary, scheme.accent, scheme.secondary] } : {}),
        });
        return jsonResult({
          message: `Added ${args.chart_type} chart to slide ${args.slide_index}`,
          shape_index: slide.elements.length - 1,
          series_count: args.series_names.length,
          categories_count: args.categories.length,
        });
      }),
  );

  server.registerTool(
    'update_chart_data',
    {
      description: 'Replace the categories and series of the chart at shape_index; series_data is [{name, values}].',
      inputSchema: {
        slide_index: z.number().int(),
        shape_index: z.number().int(),
        categories: z.array(z.string()),
        series_data: z.array(z.object({ name: z.string(), values: z.array(z.number()) })),
        presentation_id: z.string().optional(),
      },
    },
    (args, extra) =>
      guarded(async () => {
        const chart = elementAt(slideAt(decks.of(extra).get(args.presentation_id), args.slide_index), args.shape_index, 'chart');
        const short = args.series_data.findIndex((series) => series.values.length !== args.categories.length);
        if (short >= 0) throw new Error(`series_data[${short}] has ${args.series_data[short]?.values.length} values for ${args.categories.length} categories`);
        chart.categories = args.categories;
        chart.series = args.series_data.map((series) => ({ name: series.name, values: series.values }));
        return jsonResult({ message: `Updated chart data on slide ${args.slide_index}`, categories: args.categories.length, series: args.series_data.length });
      }),
  );
}

export function registerStructureTools(server: McpServer, decks: Decks): void {
  registerTableTools(server, decks);
  registerShapeTools(server, decks);
  registerChartTools(server, decks);
}
