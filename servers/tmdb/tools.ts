// The reference tmdb server's one tool (servers/tmdb-mcp-server/src/index.ts): GET /search/movie
// on TMDB v3 with query, year and page (default 1), answering with the upstream JSON indented by
// two. The reference authenticated with a v4 read access token (TMDB_ACCESS_TOKEN, bearer); a v3
// API key (TMDB_API_KEY, sent as api_key) is taken when no token is set, as TMDB accepts both.
// A refused credential is typed (upstream_auth) but worded as the reference worded it (axios'
// "Request failed with status code 401" when the body has no `message`); other 4xx answers are
// ordinary errors in the reference's words ("TMDB API error: <message>").
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { createHttpClient, upstreamBaseUrl } from '../shared/http-client.js';
import { registerKeyedTool } from '../shared/keyed-tool.js';
import { textResult, upstreamErrorResult } from '../shared/tool-result.js';
import { UpstreamClientError, UpstreamError, requireCredential } from '../shared/upstream-error.js';

const SERVER = 'tmdb';
const KEY_NAMES = ['TMDB_ACCESS_TOKEN', 'TMDB_API_KEY'] as const;
const http = createHttpClient({ server: SERVER });

function credentials(): { headers: Record<string, string>; query: Record<string, string> } {
  const token = process.env.TMDB_ACCESS_TOKEN?.trim();
  if (token) return { headers: { authorization: `Bearer ${token}` }, query: {} };
  return { headers: {}, query: { api_key: requireCredential(KEY_NAMES, SERVER) } };
}

function upstreamMessage(error: { status: number | undefined; body: string }): string {
  try {
    const body = JSON.parse(error.body) as { message?: unknown; status_message?: unknown };
    if (typeof body.message === 'string') return body.message;
  } catch {
    // not JSON: fall back to the status line, as axios' message did
  }
  return `Request failed with status code ${error.status}`;
}

export function registerTmdbTools(server: McpServer): void {
  registerKeyedTool(
    server,
    KEY_NAMES,
    {
      name: 'search_movies',
      description:
        '  Search for movies using The Movie Database API.\n  Args:\n    query (string): Search query text.\n    year (number): Optional filter by release year.\n    page (number): Optional page number, defaults to 1.\n  Returns:\n    result (text): JSON string of the TMDB /search/movie response.',
      shape: {
        query: z.string().describe('Search query'),
        year: z.number().optional().describe('Filter by release year (optional)'),
        page: z.number().optional().describe('Page number (default: 1)'),
      },
    },
    async ({ query, year, page = 1 }) => {
      const auth = credentials();
      const endpoint = `${upstreamBaseUrl('M3_UPSTREAM_TMDB_URL', 'https://api.themoviedb.org')}/3/search/movie`;
      try {
        const answer = await http.getJson(endpoint, { query: { ...auth.query, query, year, page }, headers: auth.headers });
        return textResult(JSON.stringify(answer.body, null, 2));
      } catch (error) {
        if (error instanceof UpstreamClientError) throw new Error(`TMDB API error: ${upstreamMessage(error)}`);
        // A refused key stays typed (infrastructure) but in the reference's words.
        if (error instanceof UpstreamError && error.code === 'upstream_auth' && error.status !== undefined)
          return upstreamErrorResult(error, `TMDB API error: ${upstreamMessage(error)}`);
        throw error;
      }
    },
  );
}
