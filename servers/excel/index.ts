// The Excel MCP server (registered as "excel"), on exceljs. Every tool reads the workbook
// from disk, changes it and writes it back (see workbook-files.ts for paths and locking).
// create_chart is not offered: exceljs writes no charts. create_pivot_table writes a computed
// summary sheet, as the reference does.
// stdout carries MCP only; diagnostics go to stderr.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { runStdioServer } from '../shared/run-stdio.js';
import { registerDataTools } from './tools-data.js';
import { registerFormatTools } from './tools-format.js';
import { registerRangeTools } from './tools-ranges.js';
import { registerSheetStructureTools } from './tools-sheets.js';
import { registerWorkbookTools } from './tools-workbook.js';

function createExcelServer(): McpServer {
  const server = new McpServer({ name: 'excel', version: '0.1.0' });
  registerWorkbookTools(server);
  registerDataTools(server);
  registerFormatTools(server);
  registerSheetStructureTools(server);
  registerRangeTools(server);
  return server;
}

runStdioServer(createExcelServer()).catch((error: unknown) => {
  process.stderr.write(`excel: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
