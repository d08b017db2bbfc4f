// The error wording of the Python (FastMCP + requests) reference servers, for the cases where
// what the model asked for does not exist: `raise_for_status()` raised, FastMCP caught it and
// answered `Error executing tool <name>: <exception>`. Our servers answer those cases in the
// same words, so a model sees what it would have seen there. (Upstream outages are not worded
// like this: they are typed UpstreamErrors, see upstream-error.ts.)
import { STATUS_CODES } from 'node:http';
import { UpstreamClientError } from './upstream-error.js';

/** `str(requests.HTTPError)`: "404 Client Error: Not Found for url: https://...". */
export function requestsHttpErrorText(status: number, url: string): string {
  const kind = status >= 500 ? 'Server Error' : 'Client Error';
  return `${status} ${kind}: ${STATUS_CODES[status] ?? 'Unknown'} for url: ${url}`;
}

/** FastMCP's wrapping of an exception raised inside a tool. */
export function fastMcpToolErrorText(tool: string, message: string): string {
  return `Error executing tool ${tool}: ${message}`;
}

/**
 * Runs an upstream request; a 4xx "not found / bad request" from the upstream becomes a plain
 * Error worded as the FastMCP reference would have shown it. Everything else passes through.
 */
export async function asReferenceClientError<T>(tool: string, url: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof UpstreamClientError) throw new Error(fastMcpToolErrorText(tool, requestsHttpErrorText(error.status, url)));
    throw error;
  }
}
