// Every tool of the Excel MCP server, registered in one place (the stdio entry index.ts and the
// in-process tests both call registerExcelTools). The tools themselves live in tools-*.ts.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerChartTool } from './tools-chart.js';
import { registerDataTools } from './tools-data.js';
import { registerFormatTools } from './tools-format.js';
import { registerRangeTools } from './tools-ranges.js';
import { registerSheetStructureTools } from './tools-sheets.js';
import { registerWorkbookTools } from './tools-workbook.js';

export function registerExcelTools(server: McpServer): void {
  registerWorkbookTools(server);
  registerDataTools(server);
  registerFormatTools(server);
  registerSheetStructureTools(server);
  registerRangeTools(server);
  registerChartTool(server);
}
