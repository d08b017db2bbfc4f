// The neutral data model shared by the agent loop, the MCP host and every model driver.
// No I/O here: these are plain shapes, so drivers, recorders and tests agree on one vocabulary.

interface TextPart {
  type: 'text';
  text: string;
}

/** Facts about an image as it was prepared for transport (recorded per image). */
export interface ImageFacts {
  /** Where the image came from: a file path, a tool name, or "task". */
  source: string;
  originalBytes: number;
  sentBytes: number;
  width: number;
  height: number;
  /** Media type detected from the original bytes. */
  originalMediaType: string;
}

export interface ImagePart {
  type: 'image';
  /** Media type of `data`, detected from its magic bytes. */
  mediaType: string;
  /** Base64 payload, already resized / re-encoded for transport. */
  data: string;
  facts?: ImageFacts;
}

export type ContentPart = TextPart | ImagePart;

export function textOf(parts: readonly ContentPart[]): string {
  return parts
    .filter((part): part is TextPart => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
}

export function imagesOf(parts: readonly ContentPart[]): ImagePart[] {
  return parts.filter((part): part is ImagePart => part.type === 'image');
}
