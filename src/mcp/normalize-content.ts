// MCP content union → NormalizedContent[], and the reference-style result text the model reads.
// Unlike the reference (which dropped resources, audio and structuredContent and pasted raw
// base64 into the history), every content kind is kept, and binary payloads appear in the text
// only as a short marker such as `[image: image/png, 1234 bytes]`, in structured content too.
// An image's type is the one its bytes show (what the model is then sent), not the label.
import type { ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import { NO_TEXTUAL_CONTENT, toolErrorText } from '../core/tool-result-contract.js';
import { detectMediaType } from '../media/prepare-image.js';
import type { NormalizedContent, ToolCallOutcome } from './types.js';

function base64Bytes(data: string): number {
  return Buffer.byteLength(data, 'base64');
}

function toNormalized(block: ContentBlock): NormalizedContent {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
      return { type: 'image', data: block.data, mimeType: block.mimeType };
    case 'audio':
      return { type: 'audio', data: block.data, mimeType: block.mimeType };
    case 'resource_link':
      return {
        type: 'resource_link',
        uri: block.uri,
        ...(block.name ? { name: block.name } : {}),
        ...(block.mimeType ? { mimeType: block.mimeType } : {}),
      };
    case 'resource': {
      const resource = block.resource;
      return {
        type: 'resource',
        uri: resource.uri,
        ...(resource.mimeType ? { mimeType: resource.mimeType } : {}),
        ...('text' in resource && typeof resource.text === 'string' ? { text: resource.text } : {}),
        ...('blob' in resource && typeof resource.blob === 'string' ? { blob: resource.blob } : {}),
      };
    }
  }
}

/** Normalises the `content` array of a `tools/call` result (validated by the SDK schema). */
export function normalizeContent(content: readonly ContentBlock[] | undefined): NormalizedContent[] {
  return (content ?? []).map(toNormalized);
}

/**
 * Types each image by its bytes: a server that labels a PNG `image/jpeg` gets `mimeType`
 * image/png and `claimedMimeType` image/jpeg. Bytes no detector knows keep the label.
 */
export async function typeImagesByBytes(content: readonly NormalizedContent[]): Promise<NormalizedContent[]> {
  return Promise.all(
    content.map(async (item) => {
      if (item.type !== 'image') return item;
      const detected = await detectMediaType(Buffer.from(item.data, 'base64'));
      if (!detected || detected === item.mimeType) return item;
      return { ...item, mimeType: detected, claimedMimeType: item.mimeType };
    }),
  );
}

/**
 * One line of result text for one content item; binary data is summarised, never inlined.
 * @internal Exported for its tests.
 */
export function describeContent(item: NormalizedContent): string {
  switch (item.type) {
    case 'text':
      return item.text;
    case 'image':
      return `[image: ${item.mimeType}${item.claimedMimeType ? ` (labelled ${item.claimedMimeType})` : ''}, ${base64Bytes(item.data)} bytes]`;
    case 'audio':
      return `[audio: ${item.mimeType}, ${base64Bytes(item.data)} bytes]`;
    case 'resource':
      if (item.text !== undefined) return item.text;
      return `[resource: ${item.uri}${item.mimeType ? `, ${item.mimeType}` : ''}${item.blob !== undefined ? `, ${base64Bytes(item.blob)} bytes` : ''}]`;
    case 'resource_link':
      return `[resource link: ${item.uri}${item.name ? ` (${item.name})` : ''}]`;
  }
}

function hasText(content: readonly NormalizedContent[]): boolean {
  return content.some((item) => item.type === 'text' || (item.type === 'resource' && item.text !== undefined));
}

/** Strings this long that are all base64 are binary payloads, not text a model can use. */
const minBase64Chars = 256;
const base64Text = /^[A-Za-z0-9+/\r\n]+={0,2}$/;
const dataUrl = /^data:([\w.+-]+\/[\w.+-]+)?(?:;[\w=-]+)*;base64,/;

/** JSON.stringify replacer: image/audio items and base64 strings become short markers. */
function binaryAsMarker(_key: string, value: unknown): unknown {
  if (typeof value === 'string') {
    const url = dataUrl.exec(value);
    if (url) return `[data URL: ${url[1] ?? 'unknown type'}, ${base64Bytes(value.slice(url[0].length))} bytes]`;
    if (value.length >= minBase64Chars && base64Text.test(value)) return `[base64 data, ${base64Bytes(value)} bytes]`;
    return value;
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const item = value as Record<string, unknown>;
    if ((item.type === 'image' || item.type === 'audio') && typeof item.data === 'string') {
      return `[${item.type}${typeof item.mimeType === 'string' ? `: ${item.mimeType}` : ''}, ${base64Bytes(item.data)} bytes]`;
    }
  }
  return value;
}

/**
 * The result string given to the model: content lines joined by `\n`; structured content as
 * JSON (binary payloads as markers) when the server sent no text; `[Tool error] ` in front of
 * errors; `[no textual content]` when nothing is left.
 */
export function toResultText(outcome: Pick<ToolCallOutcome, 'content' | 'structuredContent' | 'isError'>): string {
  const lines = outcome.content.map(describeContent);
  if (outcome.structuredContent !== undefined && !hasText(outcome.content)) {
    lines.push(JSON.stringify(outcome.structuredContent, binaryAsMarker));
  }
  const body = lines.join('\n');
  const text = body.trim() === '' ? NO_TEXTUAL_CONTENT : body;
  return outcome.isError ? toolErrorText(text) : text;
}
