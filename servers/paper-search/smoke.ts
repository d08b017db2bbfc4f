// `m3 servers check --smoke` for paper_search: one arXiv search (the export API, no key), as
// the GT calls it. Offline it runs against a fake answering with a one-entry Atom feed in the
// layout of the arXiv API user manual.
import type { ServerSmoke } from '../shared/smoke.js';

const feed = `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title type="html">ArXiv Query: search_query=ti:zebra OR abs:zebra&amp;id_list=&amp;start=0&amp;max_results=1</title>
  <id>http://arxiv.org/api/smoke</id>
  <updated>2025-10-27T00:00:00-04:00</updated>
  <entry>
    <id>http://arxiv.org/abs/2510.00001v1</id>
    <updated>2025-10-01T12:00:00Z</updated>
    <published>2025-10-01T12:00:00Z</published>
    <title>Smoke-test entry</title>
    <summary>An entry of the offline smoke feed.</summary>
    <author><name>Smoke Author</name></author>
    <link href="http://arxiv.org/abs/2510.00001v1" rel="alternate" type="text/html"/>
    <link title="pdf" href="http://arxiv.org/pdf/2510.00001v1" rel="related" type="application/pdf"/>
    <category term="q-bio.PE" scheme="http://arxiv.org/schemas/atom"/>
  </entry>
</feed>
`;

export const smoke: ServerSmoke = {
  tool: 'search_arxiv',
  args: { query: 'ti:zebra OR abs:zebra', max_results: 1 },
  expectation: 'one arXiv paper as JSON with source "arxiv"',
  accept: (text) => {
    try {
      const paper = JSON.parse(text) as { source?: string; paper_id?: string };
      return paper.source === 'arxiv' && typeof paper.paper_id === 'string' && paper.paper_id !== '';
    } catch {
      return false;
    }
  },
  offline: {
    env: { M3_UPSTREAM_ARXIV_API_URL: '/arxiv' },
    routes: [{ path: '/arxiv/query', reply: { body: feed, headers: { 'content-type': 'application/atom+xml; charset=utf-8' } } }],
  },
};
