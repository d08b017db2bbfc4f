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
