// manage_fonts: the answers of the upstream Office-PowerPoint-MCP-Server's font helpers that the
// reference vendors (analyze: family, style, glyph count, file size; optimize: the font saved
// to output_path; recommend: the analysis plus usage advice per presentation type), read from
// the font file's own tables: the sfnt table directory, `name` (ids 1 and 2, Windows UTF-16BE
// records first, then Macintosh single-byte ones) and `maxp` (glyph count). A TrueType/OpenType
// collection answers for its first font. Subsetting to `text_content` needs a font subsetter,
// which is not here: optimize with text_content says so instead of writing an unchanged file.
import { copyFile, mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';

interface FontFacts {
  family: string;
  style: string;
  glyphs: number;
}

function tableDirectory(bytes: Buffer, start: number, file: string): Map<string, { offset: number; length: number }> {
  const version = bytes.readUInt32BE(start);
  if (version !== 0x00010000 && version !== 0x4f54544f && version !== 0x74727565)
    throw new Error(`${file} is not a TrueType/OpenType font (sfnt version 0x${version.toString(16)})`);
  const count = bytes.readUInt16BE(start + 4);
  const tables = new Map<string, { offset: number; length: number }>();
  for (let index = 0; index < count; index += 1) {
    const entry = start + 12 + index * 16;
    tables.set(bytes.toString('latin1', entry, entry + 4), { offset: bytes.readUInt32BE(entry + 8), length: bytes.readUInt32BE(entry + 12) });
  }
  return tables;
}

function nameRecords(bytes: Buffer, table: { offset: number; length: number }): Map<number, string> {
  const count = bytes.readUInt16BE(table.offset + 2);
  const strings = table.offset + bytes.readUInt16BE(table.offset + 4);
  const windows = new Map<number, string>();
  const mac = new Map<number, string>();
  for (let index = 0; index < count; index += 1) {
    const record = table.offset + 6 + index * 12;
    const platform = bytes.readUInt16BE(record);
    const nameId = bytes.readUInt16BE(record + 6);
    const length = bytes.readUInt16BE(record + 8);
    const at = strings + bytes.readUInt16BE(record + 10);
    const raw = bytes.subarray(at, at + length);
    if ((platform === 3 || platform === 0) && !windows.has(nameId)) windows.set(nameId, Buffer.from(raw).swap16().toString('utf16le'));
    else if (platform === 1 && !mac.has(nameId)) mac.set(nameId, raw.toString('latin1'));
  }
  return new Map([...mac, ...windows]);
}

/** Family, style and glyph count of a .ttf/.otf/.ttc file's (first) font. */
function readFontFacts(bytes: Buffer, file: string): FontFacts {
  if (bytes.length < 12) throw new Error(`${file} is not a TrueType/OpenType font (${bytes.length} bytes)`);
  const start = bytes.toString('latin1', 0, 4) === 'ttcf' ? bytes.readUInt32BE(12) : 0;
  const tables = tableDirectory(bytes, start, file);
  const name = tables.get('name');
  const maxp = tables.get('maxp');
  const names = name ? nameRecords(bytes, name) : new Map<number, string>();
  return { family: names.get(1) ?? '', style: names.get(2) ?? '', glyphs: maxp ? bytes.readUInt16BE(maxp.offset + 4) : 0 };
}

export async function analyzeFont(file: string, shown: string): Promise<Record<string, unknown>> {
  try {
    const facts = readFontFacts(await readFile(file), shown);
    return {
      file_path: shown,
      font_family: facts.family,
      font_style: facts.style,
      num_glyphs: facts.glyphs,
      file_size: (await stat(file)).size,
      analysis_success: true,
    };
  } catch (error) {
    return { file_path: shown, analysis_success: false, error: error instanceof Error ? error.message : String(error) };
  }
}

export async function optimizeFont(file: string, shown: string, output: string, textContent: string | null | undefined): Promise<Record<string, unknown>> {
  if (textContent) throw new Error('Failed to optimize font: subsetting to text_content needs a font subsetter, which this server does not have');
  readFontFacts(await readFile(file), shown);
  await mkdir(path.dirname(output), { recursive: true });
  await copyFile(file, output);
  return {
    message: `Optimized font: ${shown}`,
    original_path: shown,
    optimized_path: output,
    note: 'no text_content: every glyph is kept, the font is written unchanged',
  };
}

/** The upstream helper fills advice for `business` only; other types get the empty lists it returns. */
export async function recommendFont(file: string, shown: string, presentationType: string): Promise<Record<string, unknown>> {
  const business = presentationType === 'business';
  return {
    font_analysis: await analyzeFont(file, shown),
    presentation_type: presentationType,
    recommendations: {
      suitable_for: business ? ['titles', 'body_text', 'captions'] : [],
      recommended_sizes: business ? { title: '24-36pt', subtitle: '16-20pt', body: '12-16pt' } : {},
      usage_tips: business ? ['Use for professional presentations', 'Good for readability at distance', 'Works well with business themes'] : [],
      compatibility: 'good',
    },
  };
}
