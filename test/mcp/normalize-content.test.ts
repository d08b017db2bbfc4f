// The MCP content union → NormalizedContent and the result text the model reads.
import { describe, expect, it } from 'vitest';
import { describeContent, normalizeContent, toResultText } from '../../src/mcp/normalize-content.js';
import { createChildEnv } from '../../src/mcp/child-env.js';
import { hashServerTools, hashToolSurface, stableStringify } from '../../src/mcp/tools-hash.js';

const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

describe('normalizeContent / toResultText', () => {
  it('joins text parts with newlines and marks images instead of inlining base64', () => {
    const content = normalizeContent([
      { type: 'text', text: 'first' },
      { type: 'image', data: png.toString('base64'), mimeType: 'image/png' },
      { type: 'text', text: 'second' },
    ]);
    expect(content[1]).toEqual({ type: 'image', data: png.toString('base64'), mimeType: 'image/png' });
    expect(toResultText({ content, isError: false })).toBe(`first\n[image: image/png, ${png.length} bytes]\nsecond`);
  });

  it('prefixes errors and fills empty results', () => {
    expect(toResultText({ content: [], isError: false })).toBe('[no textual content]');
    expect(toResultText({ content: [{ type: 'text', text: '   ' }], isError: true })).toBe('[Tool error] [no textual content]');
    expect(toResultText({ content: [{ type: 'text', text: 'bad input' }], isError: true })).toBe('[Tool error] bad input');
  });

  it('uses structured content only when there is no text', () => {
    const structuredContent = { b: 1, a: [true] };
    expect(toResultText({ content: [], structuredContent, isError: false })).toBe('{"b":1,"a":[true]}');
    expect(toResultText({ content: [{ type: 'text', text: 'summary' }], structuredContent, isError: false })).toBe('summary');
  });

  it('keeps embedded resources, links and audio', () => {
    const content = normalizeContent([
      { type: 'resource', resource: { uri: 'file:///a.txt', text: 'inside' } },
      { type: 'resource', resource: { uri: 'file:///b.bin', blob: 'AAAA' } },
      { type: 'resource_link', uri: 'https://example.org/x', name: 'x' },
      { type: 'audio', data: 'AAAAAA==', mimeType: 'audio/mpeg' },
    ]);
    expect(content).toEqual([
      { type: 'resource', uri: 'file:///a.txt', text: 'inside' },
      { type: 'resource', uri: 'file:///b.bin', blob: 'AAAA' },
      { type: 'resource_link', uri: 'https://example.org/x', name: 'x' },
      { type: 'audio', data: 'AAAAAA==', mimeType: 'audio/mpeg' },
    ]);
    expect(content.map(describeContent)).toEqual([
      'inside',
      '[resource: file:///b.bin, 3 bytes]',
      '[resource link: https://example.org/x (x)]',
      '[audio: audio/mpeg, 4 bytes]',
    ]);
  });
});

describe('createChildEnv', () => {
  it('copies only base variables from the parent, then shared, then server env', () => {
    const env = createChildEnv({
      parentEnv: { PATH: '/bin', HOME: '/home/u', OPENAI_API_KEY: 'sk-x', NODE_OPTIONS: '--inspect', TMPDIR: '/tmp', EVIL: '() { :; }' },
      sharedEnv: { M3_ALLOWED_ROOTS: '/work', PATH: '/shared/bin' },
      serverEnv: { API_KEY: 'server-own', M3_ALLOWED_ROOTS: '/server' },
    });
    expect(env).toEqual({ PATH: '/shared/bin', HOME: '/home/u', TMPDIR: '/tmp', M3_ALLOWED_ROOTS: '/server', API_KEY: 'server-own' });
    expect(createChildEnv({ parentEnv: { LANG: '() { evil; }' }, serverEnv: {} })).toEqual({});
  });
});

describe('tool hashes', () => {
  const tools = [
    { name: 'b', description: 'B', inputSchema: { type: 'object', properties: { y: { type: 'number' }, x: { type: 'string' } } } },
    { name: 'a', inputSchema: { type: 'object' } },
  ];

  it('ignores tool order and schema key order but sees every change', () => {
    const reordered = [
      { ...tools[1]! },
      { name: 'b', description: 'B', inputSchema: { properties: { x: { type: 'string' }, y: { type: 'number' } }, type: 'object' } },
    ];
    expect(hashServerTools(reordered)).toBe(hashServerTools(tools));
    expect(hashServerTools([{ ...tools[0]!, description: 'B!' }, tools[1]!])).not.toBe(hashServerTools(tools));
    expect(hashToolSurface([{ name: 's1', tools }])).not.toBe(hashToolSurface([{ name: 's2', tools }]));
    expect(stableStringify({ z: 1, a: [{ d: 2, c: undefined }] })).toBe('{"a":[{"d":2}],"z":1}');
  });
});
