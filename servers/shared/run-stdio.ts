// Starts an McpServer on stdio and exits cleanly when the host closes the pipe.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

export async function runStdioServer(server: McpServer): Promise<void> {
  const transport = new StdioServerTransport();
  await server.connect(transport);
  process.stdin.on('end', () => {
    void server.close().finally(() => process.exit(0));
  });
}

/**
 * The whole entry file of a server: build it, serve it on stdio, report readiness or the start-up
 * failure on stderr (exit code 1).
 */
export async function runStdioMain(name: string, create: () => McpServer): Promise<void> {
  try {
    await runStdioServer(create());
    process.stderr.write(`${name} MCP server ready on stdio\n`);
  } catch (error) {
    process.stderr.write(`${name} MCP server failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
