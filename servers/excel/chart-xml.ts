// DrawingML chart XML (xl/charts/chartN.xml) for create_chart: exceljs writes no charts, so the
// chart part is written by hand. The layout follows the reference's openpyxl chart
// (excel-mcp-server chart.py): first column = categories (x values for scatter), first row =
// series titles, one series per further column, legend on the right, value data labels on,
// no gridlines. Element order follows the DrawingML schema, which Excel enforces.
import { type CellPosition, type CellRange, toAddress } from './cells.js';

export const chartTypes = ['line', 'bar', 'pie', 'scatter', 'area'] as const;
export type ChartType = (typeof chartTypes)[number];

export interface ChartSpec {
  type: ChartType;
  /** The sheet the data lives on. */
  dataSheet: string;
  /** The whole data range, header row and category column included. */
  range: CellRange;
  title: string;
  xAxis: string;
  yAxis: string;
}

const categoryAxisId = 10;
const valueAxisId = 100;

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function absolute(position: CellPosition): string {
  const address = toAddress(position);
  const split = /^([A-Z]+)(\d+)$/.exec(address);
  return split ? `$${split[1]}$${split[2]}` : address;
}

/** A formula reference like 'My Sheet'!$B$2:$B$5 (quotes doubled inside the name). */
function reference(sheet: string, from: CellPosition, to: CellPosition): string {
  const name = `'${sheet.replace(/'/g, "''")}'`;
  const span = from.row === to.row && from.column === to.column ? absolute(from) : `${absolute(from)}:${absolute(to)}`;
  return escapeXml(`${name}!${span}`);
}

function richText(text: string): string {
  return `<c:tx><c:rich><a:bodyPr/><a:lstStyle/><a:p><a:r><a:t>${escapeXml(text)}</a:t></a:r></a:p></c:rich></c:tx>`;
}

function titleXml(text: string): string {
  return text === '' ? '' : `<c:title>${richText(text)}<c:overlay val="0"/></c:title>`;
}

const dataLabels =
  '<c:dLbls><c:showLegendKey val="0"/><c:showVal val="1"/><c:showCatName val="0"/><c:showSerName val="0"/>' +
  '<c:showPercent val="0"/><c:showBubbleSize val="0"/></c:dLbls>';

function seriesXml(spec: ChartSpec): string[] {
  const { start, end } = spec.range;
  const first = start.row + 1;
  const series: string[] = [];
  for (let column = start.column + 1; column <= end.column; column += 1) {
    const index = column - start.column - 1;
    const head = `<c:idx val="${index}"/><c:order val="${index}"/><c:tx><c:strRef><c:f>${reference(spec.dataSheet, { row: start.row, column }, { row: start.row, column })}</c:f></c:strRef></c:tx>`;
    const categories = reference(spec.dataSheet, { row: first, column: start.column }, { row: end.row, column: start.column });
    const values = reference(spec.dataSheet, { row: first, column }, { row: end.row, column });
    if (spec.type === 'scatter') {
      series.push(
        `<c:ser>${head}<c:marker><c:symbol val="circle"/></c:marker><c:xVal><c:numRef><c:f>${categories}</c:f></c:numRef></c:xVal>` +
          `<c:yVal><c:numRef><c:f>${values}</c:f></c:numRef></c:yVal><c:smooth val="0"/></c:ser>`,
      );
      continue;
    }
    const marker = spec.type === 'line' ? '<c:marker><c:symbol val="none"/></c:marker>' : '';
    const invert = spec.type === 'bar' ? '<c:invertIfNegative val="0"/>' : '';
    const smooth = spec.type === 'line' ? '<c:smooth val="0"/>' : '';
    series.push(
      `<c:ser>${head}${invert}${marker}<c:cat><c:strRef><c:f>${categories}</c:f></c:strRef></c:cat>` +
        `<c:val><c:numRef><c:f>${values}</c:f></c:numRef></c:val>${smooth}</c:ser>`,
    );
  }
  return series;
}

function axisXml(kind: 'catAx' | 'valAx', id: number, cross: number, position: 'b' | 'l', title: string): string {
  return (
    `<c:${kind}><c:axId val="${id}"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/>` +
    `<c:axPos val="${position}"/>${titleXml(title)}<c:majorTickMark val="out"/><c:minorTickMark val="none"/>` +
    `<c:tickLblPos val="nextTo"/><c:crossAx val="${cross}"/><c:crosses val="autoZero"/></c:${kind}>`
  );
}

function plotXml(spec: ChartSpec): string {
  const series = seriesXml(spec).join('');
  const axisIds = `<c:axId val="${categoryAxisId}"/><c:axId val="${valueAxisId}"/>`;
  const yAxis = axisXml('valAx', valueAxisId, categoryAxisId, 'l', spec.yAxis);
  switch (spec.type) {
    case 'pie':
      return `<c:pieChart><c:varyColors val="1"/>${series}${dataLabels}<c:firstSliceAng val="0"/></c:pieChart>`;
    case 'bar':
      return `<c:barChart><c:barDir val="col"/><c:grouping val="clustered"/><c:varyColors val="0"/>${series}${dataLabels}<c:gapWidth val="150"/>${axisIds}</c:barChart>${axisXml('catAx', categoryAxisId, valueAxisId, 'b', spec.xAxis)}${yAxis}`;
    case 'line':
      return `<c:lineChart><c:grouping val="standard"/><c:varyColors val="0"/>${series}${dataLabels}<c:marker val="1"/>${axisIds}</c:lineChart>${axisXml('catAx', categoryAxisId, valueAxisId, 'b', spec.xAxis)}${yAxis}`;
    case 'area':
      return `<c:areaChart><c:grouping val="standard"/><c:varyColors val="0"/>${series}${dataLabels}${axisIds}</c:areaChart>${axisXml('catAx', categoryAxisId, valueAxisId, 'b', spec.xAxis)}${yAxis}`;
    case 'scatter':
      return `<c:scatterChart><c:scatterStyle val="lineMarker"/><c:varyColors val="0"/>${series}${dataLabels}${axisIds}</c:scatterChart>${axisXml('valAx', categoryAxisId, valueAxisId, 'b', spec.xAxis)}${yAxis}`;
  }
}

/** The complete chart part. */
export function chartXml(spec: ChartSpec): string {
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    '<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" ' +
    'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ' +
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
    `<c:roundedCorners val="0"/><c:chart>${titleXml(spec.title)}<c:autoTitleDeleted val="${spec.title === '' ? 1 : 0}"/>` +
    `<c:plotArea><c:layout/>${plotXml(spec)}</c:plotArea>` +
    '<c:legend><c:legendPos val="r"/><c:overlay val="0"/></c:legend><c:plotVisOnly val="1"/><c:dispBlanksAs val="gap"/>' +
    '</c:chart></c:chartSpace>'
  );
}

/** The reference's chart size, 15 x 7.5 cm, in EMU (360,000 per cm). */
const chartWidthEmu = 15 * 360_000;
const chartHeightEmu = 7.5 * 360_000;

/**
 * One drawing anchor holding a chart frame; `relationId` names the chart in the drawing's rels
 * (chart-parts.ts numbers the frame when it places the anchor in a drawing).
 */
export function chartAnchorXml(anchor: CellPosition, relationId: string, frameId = 1): string {
  return (
    `<xdr:oneCellAnchor><xdr:from><xdr:col>${anchor.column - 1}</xdr:col><xdr:colOff>0</xdr:colOff>` +
    `<xdr:row>${anchor.row - 1}</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from>` +
    `<xdr:ext cx="${chartWidthEmu}" cy="${chartHeightEmu}"/>` +
    `<xdr:graphicFrame macro=""><xdr:nvGraphicFramePr><xdr:cNvPr id="${frameId}" name="Chart ${frameId}"/><xdr:cNvGraphicFramePr/></xdr:nvGraphicFramePr>` +
    '<xdr:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/></xdr:xfrm>' +
    '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart">' +
    `<c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="${relationId}"/>` +
    '</a:graphicData></a:graphic></xdr:graphicFrame><xdr:clientData/></xdr:oneCellAnchor>'
  );
}
