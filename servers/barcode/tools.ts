// The tools of the `pyzbar-mcp` MCP server: the reference's `scan_barcode` (same name and `image_paths`
// argument) decoded with zxing-wasm instead of zbar, plus `generate_barcode`.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { guarded, jsonResult } from '../shared/tool-result.js';
import { namedFormats } from './formats.js';
import { generateBarcode } from './generate.js';
import { scanImages } from './scan.js';

const formatNames = namedFormats.map((format) => format.name).join(', ');

const scanInput = {
  image_paths: z
    .union([z.array(z.string()), z.string()])
    .describe('One image path or a list of paths (under media/ or an allowed folder; file:// URIs and data URLs also work).'),
  formats: z.array(z.string()).optional().describe(`Only look for these formats (default: all). Names: ${formatNames}; aliases such as "EAN-13" or "QR" work.`),
};

const generateInput = {
  format: z.string().describe(`Barcode format: ${formatNames}, or any bwip-js symbology id (e.g. gs1-128, maxicode).`),
  text: z.string().min(1).max(4000).describe('The content to encode (digits only for EAN/UPC/ITF; Codabar needs start/stop letters, e.g. A40156B).'),
  output_path: z.string().optional().describe('Where to save the PNG (inside media/ or an allowed folder). Default: media/generated/<format>-<hash>.png.'),
  scale: z.number().int().min(1).max(10).optional().describe('Pixels per module, 1-10 (default 3).'),
};

export function registerBarcodeTools(server: McpServer): void {
  server.registerTool(
    'scan_barcode',
    {
      description:
        'Decode the barcodes and QR codes in one or more local images (QR, EAN-13/8, UPC-A/E, Code 128/39/93, ITF, Codabar, ' +
        'Data Matrix, PDF417, Aztec). Returns per image the codes found (format, text, corner positions) or an error.',
      inputSchema: scanInput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args, call) => guarded(async () => jsonResult({ results: await scanImages(args.image_paths, args.formats, call) })),
  );
  server.registerTool(
    'generate_barcode',
    {
      description: 'Draw a barcode or QR code as a PNG with a quiet zone, save it and return the image and its path.',
      inputSchema: generateInput,
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    async (args, call) =>
      guarded(async () => {
        const { png, ...summary } = await generateBarcode(args, call);
        return jsonResult(summary, [{ data: png, mimeType: 'image/png' }]);
      }),
  );
}
