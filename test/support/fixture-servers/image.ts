// Fixture MCP server "image" on stdio; its tools are in image-tools.ts.
import { runStdioServer } from '../../../servers/shared/run-stdio.js';
import { createImageFixture } from './image-tools.js';

await runStdioServer(createImageFixture());
