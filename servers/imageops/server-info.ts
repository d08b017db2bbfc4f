// What a client can read from this server besides its tools (MCP resources and prompts), for
// a person exploring it in the demo's playground or any MCP inspector: the formats and limits
// the tools work within, a swatch of the colour names the drawing tools accept, and a prompt
// that asks a model to mark objects on an image with these tools.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import sharp from 'sharp';
import { z } from 'zod';
import { maxImagePixels } from '../shared/image-input.js';
import { colorNames } from './colors.js';
import { outputExtensions, previewMaxEdge } from './image-io.js';
import { rectangleSvg, wrapSvg } from './overlay-svg.js';

const limitsUri = 'imageops://limits';
const swatchUri = 'imageops://colors.png';

function limits() {
  return {
    inputs: 'a path inside the allowed folders (M3_ALLOWED_DIRS; the task workspace when the host sends one) or a data: URL',
    maxInputPixels: maxImagePixels,
    outputExtensions: outputExtensions(),
    defaultOutput: '<input stem>_<operation>.png next to the input (a numeric suffix keeps earlier outputs)',
    inlinePreviewMaxEdge: previewMaxEdge,
    colors: {
      spellings: ['a name from `names`', 'hex #rgb, #rrggbb or #rrggbbaa', 'a list [b, g, r] or [b, g, r, alpha] (OpenCV BGR order)'],
      names: colorNames().map((color) => color.name),
    },
  };
}

/** One labelled tile per colour name, four to a row. */
async function colorSwatch(): Promise<Buffer> {
  const tile = { width: 150, height: 60 };
  const colors = colorNames();
  const rows = Math.ceil(colors.length / 4);
  const shapes = colors.map(({ name, rgb: [r, g, b] }, index) => {
    const x1 = (index % 4) * tile.width;
    const y1 = Math.floor(index / 4) * tile.height + 22;
    const color = { r, g, b, alpha: 1 };
    const box = { x1, y1, x2: x1 + tile.width - 4, y2: y1 + tile.height - 26 };
    // A grey frame keeps light tiles (white) visible on the white background.
    const frame = rectangleSvg({ ...box, color: { r: 160, g: 160, b: 160, alpha: 1 }, thickness: 1, filled: false });
    return rectangleSvg({ ...box, color, thickness: -1, filled: true, label: name }) + frame;
  });
  const height = rows * tile.height + 22;
  return sharp({ create: { width: 4 * tile.width, height, channels: 3, background: '#ffffff' } })
    .composite([{ input: wrapSvg(4 * tile.width, height, shapes) }])
    .png()
    .toBuffer();
}

export function registerServerInfo(server: McpServer): void {
  server.registerResource(
    'limits',
    limitsUri,
    { title: 'Formats and limits', description: 'Inputs, output formats, size limits and colour spellings of the image tools', mimeType: 'application/json' },
    async () => ({ contents: [{ uri: limitsUri, mimeType: 'application/json', text: JSON.stringify(limits(), null, 2) }] }),
  );
  server.registerResource(
    'colors',
    swatchUri,
    { title: 'Colour names', description: 'A swatch of every colour name the drawing tools accept', mimeType: 'image/png' },
    async () => ({ contents: [{ uri: swatchUri, mimeType: 'image/png', blob: (await colorSwatch()).toString('base64') }] }),
  );
  server.registerPrompt(
    'mark-objects',
    {
      title: 'Mark objects on an image',
      description: 'Asks a model to find objects in an image and draw a labelled box around each with this server',
      argsSchema: {
        image_path: z.string().describe('the image to mark (a path the tools can read)'),
        objects: z.string().describe('what to mark, e.g. "dogs"'),
      },
    },
    ({ image_path: image, objects }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: `Find all the ${objects} in the image at ${image}. Draw a labelled rectangle around each with imagesorcery-mcp/draw_rectangles (colours by name, e.g. "red"), then tell me how many you marked and give the path of the marked image.`,
          },
        },
      ],
    }),
  );
}
