// The tool list a server's catalog keeps: the first of duplicate names, and none of the tools
// the host cannot call.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../log/logger.js';

/**
 * Tools whose `execution.taskSupport` is "required" answer a plain `tools/call` with an error
 * (-32600): the host makes only plain calls, so it must not offer them to a model.
 */
export function offeredTools(tools: Tool[]): { offered: Tool[]; withheld: string[] } {
  const required = (tool: Tool) => tool.execution?.taskSupport === 'required';
  return { offered: tools.filter((tool) => !required(tool)), withheld: tools.filter(required).map((tool) => tool.name) };
}

export function dedupeTools(tools: Tool[], server: string, logger: Logger): Tool[] {
  const seen = new Set<string>();
  return tools.filter((tool) => {
    if (seen.has(tool.name)) {
      logger.warn(`mcp server "${server}" lists tool "${tool.name}" twice; keeping the first`);
      return false;
    }
    seen.add(tool.name);
    return true;
  });
}
