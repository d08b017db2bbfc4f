// Every tool of the PowerPoint MCP server, registered in one place (the stdio entry index.ts and
// the in-process tests both call registerPptTools). The tools live in tools-*.ts; they share the
// presentations open in this server, one set per task workspace (servers/shared/task-state.ts).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { PerTaskState } from '../shared/task-state.js';
import { type Decks, PresentationStore } from './model.js';
import { registerDeckTools } from './tools-deck.js';
import { registerDesignTools } from './tools-design.js';
import { registerFileTools, registerFontTool, registerPictureEffectsTool } from './tools-files.js';
import { registerTextLevelTools } from './tools-placeholders.js';
import { registerSlideTools } from './tools-slides.js';
import { registerStructureTools } from './tools-structure.js';
import { registerTextTool } from './tools-text.js';

export function registerPptTools(server: McpServer, decks: Decks = new PerTaskState(() => new PresentationStore())): void {
  registerDeckTools(server, decks);
  registerFileTools(server, decks);
  registerPictureEffectsTool(server, decks);
  registerFontTool(server);
  registerSlideTools(server, decks);
  registerTextTool(server, decks);
  registerStructureTools(server, decks);
  registerTextLevelTools(server, decks);
  registerDesignTools(server, decks);
}
