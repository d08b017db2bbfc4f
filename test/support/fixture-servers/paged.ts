// Fixture MCP server "paged" on stdio, sized by its environment; its tools are in paged-tools.ts.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createPagedFixture } from './paged-tools.js';

const server = createPagedFixture(process.env);
await server.connect(new StdioServerTransport());
process.stdin.on('end', () => {
  void server.close().finally(() => process.exit(0));
});
