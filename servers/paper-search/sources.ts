// Small pieces the paper sources share: the typed "answered, but not in the documented shape"
// failure, and the reference's messages for sources that cannot download or read papers.
import { UpstreamError } from '../shared/upstream-error.js';
import { baseUrl, type Upstream } from './upstreams.js';

export function badResponse(name: Upstream, message: string): UpstreamError {
  return new UpstreamError('upstream_bad_response', message, { upstream: new URL(baseUrl(name)).hostname });
}

/** A JSON object from a text body; anything else is a typed bad response. */
export function parseJsonObject(text: string, name: Upstream): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badResponse(name, `${new URL(baseUrl(name)).hostname} answered with a body that is not JSON: ${text.slice(0, 120)}`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw badResponse(name, `${new URL(baseUrl(name)).hostname} answered with JSON that is not an object`);
  return value as Record<string, unknown>;
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
