// MCP content union → NormalizedContent[], and the reference-style result text the model reads.
// Unlike the reference (which dropped resources, audio and structuredContent and pasted raw
// base64 into the history), every content kind is kept, and binary payloads appear in the text
// only as a short marker such as `[image: image/png, 1234 bytes]`.
import type { ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import { NO_TEXTUAL_CONTENT, toolErrorText } from '../core/tool-result-contract.js';
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

/** One line of result text for one content item; binary data is summarised, never inlined. */
export function describeContent(item: NormalizedContent): string {
  switch (item.type) {
    case 'text':
      return item.text;
    case 'image':
      return `[image: ${item.mimeType}, ${base64Bytes(item.data)} bytes]`;
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

/**
 * The result string given to the model: content lines joined by `\n`; structured content as
 * JSON when the server sent no text; `[Tool error] ` in front of errors; `[no textual content]`
 * when nothing is left.
 */
export function toResultText(outcome: Pick<ToolCallOutcome, 'content' | 'structuredContent' | 'isError'>): string {
  const lines = outcome.content.map(describeContent);
  if (outcome.structuredContent !== undefined && !hasText(outcome.content)) {
    lines.push(JSON.stringify(outcome.structuredContent));
  }
  const body = lines.join('\n');
  const text = body.trim() === '' ? NO_TEXTUAL_CONTENT : body;
  return outcome.isError ? toolErrorText(text) : text;
}
