// The tools of the `openlibrary_mcp` MCP server: the reference's `get_book_info` (the reference project's servers/openlibrary_mcp.py),
// same optional arguments and the same answer: the dict the reference returned, which FastMCP
// sent as JSON indented by two spaces, with the book fields under "metadata".
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { createHttpClient } from '../shared/http-client.js';
import { errorResult, guarded, textResult } from '../shared/tool-result.js';
import { lookupIsbn, OpenLibraryRequestError, sanitizeOutput, searchTitle } from './books.js';

const bookInput = {
  isbn: z.string().nullable().default(null).describe('Book ISBN-10 or ISBN-13, preferred when available.'),
  title: z.string().nullable().default(null).describe('Book title used for text search when ISBN is not provided.'),
  author: z.string().nullable().default(null).describe('Author name to narrow title-based search.'),
};

const asText = (payload: unknown) => JSON.stringify(payload, null, 2);

export function registerOpenLibraryTools(server: McpServer): void {
  const http = createHttpClient({ server: 'openlibrary_mcp' });
  server.registerTool(
    'get_book_info',
    {
      description:
        'Look up book metadata from OpenLibrary by ISBN or title with optional author filter.\nArgs:\n  isbn (Optional[str]): Book ISBN-10 or ISBN-13, preferred when available.\n  title (Optional[str]): Book title used for text search when ISBN is not provided.\n  author (Optional[str]): Author name to narrow title-based search.\nReturns:\n  A dictionary with the core book metadata, a message, or error details.',
      inputSchema: bookInput,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async ({ isbn, title, author }) =>
      guarded(async () => {
        // Outages are typed errors (guarded); what the reference answered as {"error": ...} for a
        // request OpenLibrary refused, or for no ISBN and no title, keeps its words as a tool error.
        if (!isbn && !title) return errorResult(asText({ error: 'Please provide either an ISBN or a title.' }));
        try {
          const answer = isbn ? await lookupIsbn(http, isbn) : await searchTitle(http, title ?? '', author);
          return textResult(asText(sanitizeOutput(answer)));
        } catch (error) {
          if (error instanceof OpenLibraryRequestError) return errorResult(asText({ error: error.message }));
          throw error;
        }
      }),
  );
}
