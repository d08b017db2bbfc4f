// The tools of the `ocr` MCP server: the reference's `perform_ocr` / `get_supported_languages` tools
// (same names and arguments), answered by PP-OCRv4 instead of Tesseract. See options.ts for
// what `language` and `config` mean here.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { resolveInputArgument } from '../shared/task-paths.js';
import { guarded, jsonResult } from '../shared/tool-result.js';
import { engineName, recogniseLines } from './engine.js';
import { loadOcrInput } from './input.js';
import { filterCharacters, parseConfig, parseLanguage, supportedLanguages } from './options.js';

const performOcrInput = {
  input_data: z.string().describe('The image: a path under media/ (or an allowed folder), a file:// URI, a data URL, or bare base64 image bytes.'),
  language: z
    .string()
    .default('eng')
    .describe(
      'Tesseract-style language code(s), e.g. "eng" or "eng+chi_sim". The model always reads both; without a Chinese code, full-width punctuation is folded to ASCII.',
    ),
  config: z
    .string()
    .default('--oem 3 --psm 6')
    .describe(
      'Tesseract-style options. --psm 7/8/10/13 join all lines on one line; -c tessedit_char_whitelist=... / tessedit_char_blacklist=... filter characters.',
    ),
};

interface OcrRequest {
  input_data: string;
  language?: string;
  config?: string;
}

/** `call` is the tool call's `extra`: with a task context, paths resolve in the task's workspace. */
async function runPerformOcr(request: OcrRequest, call?: { _meta?: unknown }): Promise<Record<string, unknown>> {
  const language = parseLanguage(request.language);
  const config = parseConfig(request.config);
  const image = await loadOcrInput(request.input_data, (given) => resolveInputArgument(given, call));
  // The Chinese dictionary often emits full-width punctuation ("（", "，") for Latin text; with no
  // Chinese language requested, fold those to ASCII.
  const latinOnly = !language.includes('chi_');
  const lines = (await recogniseLines(image.bytes))
    .map((line) => ({ ...line, text: filterCharacters(latinOnly ? line.text.normalize('NFKC') : line.text, config) }))
    .filter((line) => line.text !== '');
  const separator = config.layout === 'single_line' ? ' ' : '\n';
  return {
    text: lines.map((line) => line.text).join(separator),
    lines,
    language,
    engine: engineName,
    image: { width: image.width, height: image.height, media_type: image.mediaType },
    ...(config.ignored.length > 0 ? { ignored_config: config.ignored } : {}),
  };
}

export function registerOcrTools(server: McpServer): void {
  server.registerTool(
    'perform_ocr',
    {
      description:
        'Read the text in an image (printed documents, signs, posters; English and Chinese). Returns JSON with the full text, ' +
        'each line with its confidence and box corners in pixels, the language and the engine.',
      inputSchema: performOcrInput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args, call) => guarded(async () => jsonResult(await runPerformOcr(args, call))),
  );
  server.registerTool(
    'get_supported_languages',
    {
      description: 'List the language codes perform_ocr accepts.',
      inputSchema: {},
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async () =>
      guarded(async () =>
        jsonResult({
          languages: supportedLanguages.map((language) => language.code),
          details: supportedLanguages,
          engine: engineName,
          note: 'One model reads English and Chinese together; accents on Latin letters are dropped.',
        }),
      ),
  );
}
