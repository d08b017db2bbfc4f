// Small pieces the paper sources share: the outer shape of their JSON answers, reading a text
// body (fetched as text because a 4xx there is an answer) as that shape, and the reference's
// messages for sources that cannot download or read papers.
import { z } from 'zod';
import { parseJsonText } from '../shared/http-body.js';
import { parseUpstream } from '../shared/upstream-error.js';
import { baseUrl, type Upstream } from './upstreams.js';

/** A JSON object; the sources read its fields leniently, as the reference's dict lookups did. */
export const jsonObject = z.record(z.string(), z.unknown());

/** A JSON object from a text body; anything else is a typed bad response. */
export function parseJsonObject(response: { status: number; body: string }, name: Upstream, what: string): Record<string, unknown> {
  const upstream = new URL(baseUrl(name)).hostname;
  return parseUpstream(jsonObject, parseJsonText({ text: response.body, upstream, status: response.status }), upstream, what);
}

export const unsupported = {
  pubmedDownload: "PubMed does not provide direct PDF downloads. Please use the paper's DOI or URL to access the publisher's website.",
  pubmedRead:
    "PubMed papers cannot be read directly through this tool. Only metadata and abstracts are available through PubMed's API. Please use the paper's DOI or URL to access the full text on the publisher's website.",
  crossrefDownload:
    "CrossRef does not provide direct PDF downloads. CrossRef is a citation database that provides metadata about academic papers. To access the full text, please use the paper's DOI or URL to visit the publisher's website.",
  crossrefRead:
    "CrossRef papers cannot be read directly through this tool. CrossRef is a citation database that provides metadata about academic papers. Only metadata and abstracts are available through CrossRef's API. To access the full text, please use the paper's DOI or URL to visit the publisher's website.",
} as const;
