// Fixture MCP server "slow" on stdio, its log lines on stderr; its tools are in slow-tools.ts.
import { runStdioServer } from '../../../servers/shared/run-stdio.js';
import { createSlowFixture } from './slow-tools.js';

await runStdioServer(createSlowFixture((line) => process.stderr.write(`${line}\n`)));
