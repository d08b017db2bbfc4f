// Reading an upstream's text body as a format (JSON, JSON with number literals kept, XML, an
// option page): the one place where "the upstream answered, but the body cannot be read" becomes
// `upstream_bad_response` naming the upstream, with every secret of the request removed from the
// message. The shared client reads its JSON answers through here (getJson); a server reads a text
// body through here when it must look at the answer before parsing it (a content type, a 404
// that is an answer, a body a retry may replace) or parses another format. Shape checks on the
// parsed value are `parseUpstream` (upstream-error.ts) or getJson's `schema`.
import { parseLosslessJson } from '../../src/core/json-numbers.js';
import { UpstreamError } from './upstream-error.js';
import { redactSecrets } from './vendor-message.js';

/** A body as the upstream sent it, with what a failure message may name. */
export interface UpstreamText {
  text: string;
  /** Host name of the upstream; never a URL (query strings can hold keys). */
  upstream: string;
  /** The answer's HTTP status, named in the default JSON message when known. */
  status?: number;
  /** The request's secrets (vendor-message.ts requestSecrets), removed from the message. */
  secrets?: readonly string[];
}

/** Why a body could not be read, for a message in a reference's own words. */
export interface UnreadableBody {
  /** The reader's error message. */
  reason: string;
  /** The whole body (the message is redacted after it is built). */
  text: string;
}

/** `read(text)`; whatever it throws becomes `upstream_bad_response` with the message `describe` words. */
export function readUpstreamText<T>(body: UpstreamText, read: (text: string) => T, describe: (failure: UnreadableBody) => string): T {
  try {
    return read(body.text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UpstreamError('upstream_bad_response', redactSecrets(describe({ reason, text: body.text }), body.secrets ?? []), {
      upstream: body.upstream,
      ...(body.status !== undefined ? { status: body.status } : {}),
    });
  }
}

export interface JsonTextOptions {
  /** Keep each number's literal (lossless-json, python-format.ts), for servers that print numbers as the reference's Python did. */
  lossless?: boolean;
  /** The failure message in a reference's words; default names the upstream, the status and the body's start. */
  describe?: (failure: UnreadableBody) => string;
}

/** The body parsed as JSON; an empty body is not JSON here (getJson reads it as null before calling this). */
export function parseJsonText(body: UpstreamText, options: JsonTextOptions = {}): unknown {
  const describe =
    options.describe ??
    (({ text }: UnreadableBody) =>
      `${body.upstream} answered${body.status !== undefined ? ` HTTP ${body.status}` : ''} with a body that is not JSON: ${text.slice(0, 120)}`);
  return readUpstreamText(body, options.lossless ? parseLosslessJson : (text) => JSON.parse(text) as unknown, describe);
}
