// Fixture MCP server "image" (its stdio entry is image.ts; tests also run it in process through
// in-process.ts): returns a PNG (generated with sharp) as MCP image content, and
// writes a PNG under a given folder with a misleading `.txt` name, answering the reference-style
// `{"images": [path]}` text, so media-type detection from bytes can be tested end to end; also
// an image mirrored in structured content, PNG bytes with a wrong label, several images in one
// result, and a result that only names a file (any path) as its output image.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import sharp from 'sharp';
import { z } from 'zod';

const colorSchema = z.object({ r: z.number().int().min(0).max(255), g: z.number().int().min(0).max(255), b: z.number().int().min(0).max(255) });
const defaultColor = { r: 200, g: 30, b: 30 };

function renderPng(width: number, height: number, color: { r: number; g: number; b: number }): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();
}

/** A fresh image server. */
export function createImageFixture(): McpServer {
  const server = new McpServer({ name: 'image-fixture', version: '1.0.0' });
  server.registerTool(
    'make_image',
    {
      description: 'Returns a solid-colour PNG as image content.',
      inputSchema: { width: z.number().int().min(1).max(4096), height: z.number().int().min(1).max(4096), color: colorSchema.optional() },
    },
    async ({ width, height, color }) => {
      const png = await renderPng(width, height, color ?? defaultColor);
      return {
        content: [
          { type: 'text', text: `rendered ${width}x${height}` },
          { type: 'image', data: png.toString('base64'), mimeType: 'image/png' },
        ],
      };
    },
  );

  server.registerTool(
    'make_images',
    {
      description: 'Returns `count` solid-colour PNGs (`width` x `height`) as image content.',
      inputSchema: { count: z.number().int().min(1).max(8), width: z.number().int().min(1).max(512), height: z.number().int().min(1).max(512) },
    },
    async ({ count, width, height }) => {
      const pngs = await Promise.all(Array.from({ length: count }, (_, index) => renderPng(width, height, { r: 10 * index, g: 90, b: 160 })));
      return {
        content: [
          { type: 'text', text: `rendered ${count} images` },
          ...pngs.map((png) => ({ type: 'image' as const, data: png.toString('base64'), mimeType: 'image/png' })),
        ],
      };
    },
  );

  server.registerTool(
    'name_file',
    { description: 'Returns {"output_path": path} without touching the file.', inputSchema: { path: z.string().min(1) } },
    async ({ path: file }) => ({ content: [{ type: 'text', text: JSON.stringify({ output_path: file }) }] }),
  );

  server.registerTool(
    'write_image',
    {
      description: 'Writes a PNG named `<name>.txt` under `dir` and returns {"images": [path]}.',
      inputSchema: {
        dir: z.string().min(1),
        name: z
          .string()
          .regex(/^[A-Za-z0-9_-]+$/)
          .optional(),
        width: z.number().int().min(1).max(4096).optional(),
      },
    },
    async ({ dir, name, width }) => {
      await mkdir(dir, { recursive: true });
      const file = path.resolve(dir, `${name ?? 'picture'}.txt`);
      await writeFile(file, await renderPng(width ?? 32, width ?? 32, { r: 20, g: 120, b: 220 }));
      return { content: [{ type: 'text', text: JSON.stringify({ images: [file] }) }] };
    },
  );

  server.registerTool(
    'read_media',
    { description: 'Returns a PNG as image content and, like some file servers, the same item again as structured content; no text.' },
    async () => {
      const item = { type: 'image' as const, data: (await renderPng(48, 48, defaultColor)).toString('base64'), mimeType: 'image/png' };
      return { content: [item], structuredContent: { content: [item], name: 'swatch.png' } };
    },
  );

  server.registerTool('mislabelled', { description: 'Returns PNG bytes labelled image/jpeg.' }, async () => ({
    content: [{ type: 'image', data: (await renderPng(24, 16, defaultColor)).toString('base64'), mimeType: 'image/jpeg' }],
  }));
  return server;
}
