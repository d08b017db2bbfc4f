// medrxiv_search: the medRxiv "details" API. The reference puts the query where the API expects
// an interval (`details/medrxiv/<query>/0/180/json`); we send the same request (the query
// percent-encoded so it stays one path segment) and lay the answer out as medrxiv-tool.js, which
// reads `rel_*` fields (those of the API's covid19 endpoint): on "details" records they are
// absent, so JSON drops them, as it did in the reference.
import { z } from 'zod';
import { failure, type Payload, success } from './reference-shape.js';
import { baseUrl, http } from './upstreams.js';

const responseSchema = z.object({ collection: z.array(z.record(z.string(), z.unknown())) }).loose();

export async function searchMedrxiv(query: string, maxResults: number): Promise<Payload> {
  if (!query) return failure('Search query is required');
  const url = `${baseUrl('medrxiv')}/details/medrxiv/${encodeURIComponent(query)}/0/180/json`;
  const collection = (await http.getJson(url, { schema: responseSchema, what: 'details' })).body.collection;
  const articles = collection.slice(0, maxResults).map((article) => ({
    title: article.rel_title,
    authors: article.rel_authors,
    doi: article.rel_doi,
    abstract_url: `https://www.medrxiv.org/content/${String(article.rel_doi)}`,
    publication_date: article.rel_date,
  }));
  return success({ query, total_results: collection.length, articles });
}
