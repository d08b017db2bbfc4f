// The Excel MCP server (registered as "excel"), on exceljs. Every tool reads the workbook
// from disk, changes it and writes it back (see workbook-files.ts for paths and locking).
// exceljs writes no charts: create_chart writes the chart parts into the saved file itself
// (chart-parts.ts), and every save keeps them. create_pivot_table writes a computed summary
// sheet, as the reference does.
// stdout carries MCP only; diagnostics go to stderr.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { runStdioServer } from '../shared/run-stdio.js';
import { registerExcelTools } from './tools.js';

function createExcelServer(): McpServer {
  const server = new McpServer({ name: 'excel', version: '0.1.0' });
  registerExcelTools(server);
  return server;
}

runStdioServer(createExcelServer()).catch((error: unknown) => {
  process.stderr.write(`excel: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
