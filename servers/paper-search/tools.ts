// The 23 tools of the reference paper_search server (paper-search-mcp, FastMCP): names,
// docstring descriptions and argument schemas as FastMCP derived them from the signatures
// (`max_results: int = 10`, `save_path: str = "./downloads"`, `year: Optional[str] = None`), so
// GT arguments validate unchanged; answers shaped as FastMCP sent the Python return values.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { downloadArxiv, readArxiv, searchArxiv } from './arxiv.js';
import { crossrefByDoi, searchCrossref } from './crossref.js';
import { descriptions, type PaperToolName } from './descriptions.js';
import { dictResult, listResult, runFastMcpTool, stringResult } from './fastmcp-result.js';
import { searchIacr } from './iacr.js';
import { downloadIacr, downloadSemantic, readWithMetadata } from './paper-files.js';
import { downloadFolder } from './pdf-files.js';
import { downloadPreprint, type PreprintServer, readPreprint, searchPreprints } from './preprints.js';
import { searchPubmed } from './pubmed.js';
import { searchScholar } from './scholar.js';
import { searchSemantic } from './semantic.js';
import { unsupported } from './sources.js';

type Extra = { _meta?: unknown };
type Search = (query: string, maxResults: number) => Promise<Record<string, unknown>[]>;
type FileTool = (paperId: string, folder: string) => Promise<string>;

const query = z.string();
const maxResults = z.number().int().default(10);
const fileArgs = { paper_id: z.string(), save_path: z.string().default('./downloads') };

export function registerPaperSearchTools(server: McpServer): void {
  const search = (name: PaperToolName, run: Search) =>
    server.registerTool(name, { description: descriptions[name], inputSchema: { query, max_results: maxResults } }, (args) =>
      runFastMcpTool(name, async () => listResult(await run(args.query, args.max_results))),
    );
  // A tool that saves into (or reads from) the save_path folder inside the task workspace.
  const withFolder = (name: PaperToolName, run: FileTool) =>
    server.registerTool(name, { description: descriptions[name], inputSchema: fileArgs }, (args, extra: Extra) =>
      runFastMcpTool(name, async () => stringResult(await run(args.paper_id, downloadFolder(args.save_path, extra)))),
    );
  // A tool whose source cannot download or read: the reference's explanation, no folder touched.
  const explain = (name: PaperToolName, text: string) =>
    server.registerTool(name, { description: descriptions[name], inputSchema: fileArgs }, (): CallToolResult => stringResult(text));

  search('search_arxiv', searchArxiv);
  search('search_pubmed', searchPubmed);
  search('search_biorxiv', (text, count) => searchPreprints('biorxiv', text, count));
  search('search_medrxiv', (text, count) => searchPreprints('medrxiv', text, count));
  search('search_google_scholar', searchScholar);
  server.registerTool(
    'search_iacr',
    { description: descriptions.search_iacr, inputSchema: { query, max_results: maxResults, fetch_details: z.boolean().default(true) } },
    (args) => runFastMcpTool('search_iacr', async () => listResult(await searchIacr(args.query, args.max_results, args.fetch_details))),
  );

  withFolder('download_arxiv', downloadArxiv);
  withFolder('read_arxiv_paper', readArxiv);
  explain('download_pubmed', unsupported.pubmedDownload);
  explain('read_pubmed_paper', unsupported.pubmedRead);
  for (const preprint of ['biorxiv', 'medrxiv'] as PreprintServer[]) {
    withFolder(`download_${preprint}`, (id, folder) => downloadPreprint(preprint, id, folder));
    withFolder(`read_${preprint}_paper`, (id, folder) => readPreprint(preprint, id, folder));
  }
  withFolder('download_iacr', downloadIacr);
  withFolder('read_iacr_paper', (id, folder) => readWithMetadata('iacr', id, folder));

  server.registerTool(
    'search_semantic',
    { description: descriptions.search_semantic, inputSchema: { query, year: z.string().nullable().default(null), max_results: maxResults } },
    (args) => runFastMcpTool('search_semantic', async () => listResult(await searchSemantic(args.query, args.year ?? undefined, args.max_results))),
  );
  withFolder('download_semantic', downloadSemantic);
  withFolder('read_semantic_paper', (id, folder) => readWithMetadata('semantic', id, folder));

  search('search_crossref', searchCrossref);
  server.registerTool('get_crossref_paper_by_doi', { description: descriptions.get_crossref_paper_by_doi, inputSchema: { doi: z.string() } }, (args) =>
    runFastMcpTool('get_crossref_paper_by_doi', async () => dictResult(await crossrefByDoi(args.doi))),
  );
  explain('download_crossref', unsupported.crossrefDownload);
  explain('read_crossref_paper', unsupported.crossrefRead);
}
