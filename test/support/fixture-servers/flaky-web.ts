// Fixture MCP server "flaky-web" on stdio, configured by its environment; its tools are in
// flaky-web-tools.ts.
import { runStdioServer } from '../../../servers/shared/run-stdio.js';
import { createFlakyWebFixture } from './flaky-web-tools.js';

await runStdioServer(createFlakyWebFixture(process.env));
