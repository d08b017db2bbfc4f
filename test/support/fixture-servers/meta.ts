// Fixture MCP server "meta" on stdio; its tools are in meta-tools.ts.
import { runStdioServer } from '../../../servers/shared/run-stdio.js';
import { createMetaFixture } from './meta-tools.js';

await runStdioServer(createMetaFixture());
