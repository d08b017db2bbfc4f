// The PowerPoint MCP server (registered as "ppt"). Presentations are built in memory (see
// model.ts) and written as .pptx by save_presentation; images come from paths inside the
// allowed roots. stdout carries MCP only; diagnostics go to stderr.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { runStdioServer } from '../shared/run-stdio.js';
import { PerTaskState } from '../shared/task-state.js';
import { type Decks, PresentationStore } from './model.js';
import { registerDeckTools } from './tools-deck.js';
import { registerDesignTools } from './tools-design.js';
import { registerFileTools, registerFontTool, registerPictureEffectsTool } from './tools-files.js';
import { registerTextLevelTools } from './tools-placeholders.js';
import { registerSlideTools } from './tools-slides.js';
import { registerStructureTools } from './tools-structure.js';
import { registerTextTool } from './tools-text.js';

function createPptServer(decks: Decks = new PerTaskState(() => new PresentationStore())): McpServer {
  const server = new McpServer({ name: 'ppt', version: '0.1.0' });
  registerDeckTools(server, decks);
  registerFileTools(server, decks);
  registerPictureEffectsTool(server, decks);
  registerFontTool(server);
  registerSlideTools(server, decks);
  registerTextTool(server, decks);
  registerStructureTools(server, decks);
  registerTextLevelTools(server, decks);
  registerDesignTools(server, decks);
  return server;
}

runStdioServer(createPptServer()).catch((error: unknown) => {
  process.stderr.write(`ppt: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
