// Fixture MCP server "echo" on stdio; its tools are in echo-tools.ts.
import { runStdioServer } from '../../../servers/shared/run-stdio.js';
import { createEchoFixture } from './echo-tools.js';

await runStdioServer(createEchoFixture());
