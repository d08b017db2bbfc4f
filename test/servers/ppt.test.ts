// The PowerPoint server over MCP (in process: test/support/in-process-servers.ts): build decks with the
// ground-truth argument shapes, save them, and read the .pptx back with jszip.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import JSZip from 'jszip';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolCaller } from '../support/tool-caller.js';
import { assertAssetsInCi, missingAssetsMessage, sharedAssetsDir } from '../support/shared-assets.js';
import { connectInProcess } from '../support/in-process-servers.js';

let client: Client;
let work: string;
const assets = sharedAssetsDir();

const { call, ok } = toolCaller(() => client);

interface Deck {
  slides: string[];
  media: Buffer[];
  zip: JSZip;
}

function decodeXml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

/** Slide texts (all <a:t> runs joined per slide, in slide order) and embedded media. */
async function readDeck(file: string): Promise<Deck> {
  const zip = await JSZip.loadAsync(await readFile(file));
  const slideNames = Object.keys(zip.files)
    .filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name))
    .sort((a, b) => Number(/(\d+)\.xml$/.exec(a)?.[1]) - Number(/(\d+)\.xml$/.exec(b)?.[1]));
  const slides = await Promise.all(
    slideNames.map(async (name) => {
      const xml = (await zip.file(name)?.async('string')) ?? '';
      return [...xml.matchAll(/<a:t>([^<]*)<\/a:t>/g)].map((match) => decodeXml(match[1] ?? '')).join(' ');
    }),
  );
  const mediaNames = Object.keys(zip.files).filter((name) => name.startsWith('ppt/media/') && !zip.files[name]?.dir);
  const media = await Promise.all(mediaNames.map(async (name) => (await zip.file(name)?.async('nodebuffer')) ?? Buffer.alloc(0)));
  return { slides, media, zip };
}

beforeAll(async () => {
  assertAssetsInCi();
  work = await mkdtemp(path.join(tmpdir(), 'm3-ppt-'));
  client = (await connectInProcess('ppt', { env: { M3_ALLOWED_ROOTS: [work, ...(assets ? [assets] : [])].join(path.delimiter), PPT_OUTPUT_DIR: work } }))
    .client;
  await sharp({ create: { width: 320, height: 200, channels: 3, background: '#2a7fff' } })
    .png()
    .toFile(path.join(work, 'chart.png'));
});

afterAll(async () => {
  await client?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('ppt server', () => {
  it('builds a deck from ground-truth shaped calls and saves a readable .pptx', async () => {
    expect(await ok('create_presentation', { id: 'hazard_highlights' })).toMatchObject({ presentation_id: 'hazard_highlights' });
    const added = await ok('add_slide', {
      layout_index: 1,
      title: 'Construction Site Hazards',
      background_type: 'professional_gradient',
      color_scheme: 'blue_gray',
      presentation_id: 'hazard_highlights',
    });
    expect(added).toMatchObject({ slide_index: 0, slide_count: 1, layout: 'Title and Content' });
    expect(String((added.warnings as string[])[0])).toContain('blue_gray');

    const picture = path.join(work, 'chart.png');
    const image = await ok('manage_image', {
      slide_index: 0,
      operation: 'add',
      image_source: picture,
      source_type: 'file',
      left: 0.5,
      top: 1.5,
      width: 8.5,
      height: 4.8,
      presentation_id: 'hazard_highlights',
    });
    expect(image).toMatchObject({ shape_index: 1, box: { left: 0.5, top: 1.5, width: 8.5, height: 4.8 } });

    const template = await ok('create_slide_from_template', {
      template_id: 'title_slide',
      color_scheme: 'corporate_gray',
      presentation_id: 'hazard_highlights',
      content_mapping: { title: 'Modeling Collective Curiosity', subtitle: 'An Empirical Investigation', body: 'Question: hot threads?', footer: 'unused' },
    });
    expect(template).toMatchObject({ slide_index: 1, filled: ['title', 'subtitle', 'body'], ignored_keys: ['footer'] });
    const text = await ok('manage_text', {
      operation: 'add',
      slide_index: 1,
      left: 1.0,
      top: 5.1,
      width: 11.0,
      height: 1.0,
      text: 'Answer: three examples & more',
      bold: true,
      color: [85, 107, 47],
      auto_fit: true,
      presentation_id: 'hazard_highlights',
    });
    expect(text.fits).toBe(true);

    const saved = await ok('save_presentation', { file_path: './media/construction_hazards_report.pptx', presentation_id: 'hazard_highlights' });
    expect(saved.file_path).toBe(path.join(work, 'construction_hazards_report.pptx'));

    const deck = await readDeck(path.join(work, 'construction_hazards_report.pptx'));
    expect(deck.slides).toHaveLength(2);
    expect(deck.slides[0]).toContain('Construction Site Hazards');
    expect(deck.slides[1]).toContain('Modeling Collective Curiosity');
    expect(deck.slides[1]).toContain('An Empirical Investigation');
    expect(deck.slides[1]).toContain('Answer: three examples & more');
    expect(deck.slides[1]).not.toContain('unused');
    const original = await readFile(picture);
    expect(deck.media.some((bytes) => bytes.equals(original))).toBe(true);
    const slideXml = (await deck.zip.file('ppt/slides/slide2.xml')?.async('string')) ?? '';
    expect(slideXml).toContain('556B2F'); // [85, 107, 47] as RGB hex
  });

  it('keeps interleaved presentations apart and defaults to the last created', async () => {
    await ok('create_presentation', { id: 'deck_a' });
    const second = await ok('create_presentation', {});
    const generatedId = String(second.presentation_id);
    expect(generatedId).toMatch(/^presentation_[0-9a-f]{8}$/);
    const third = await ok('create_presentation', {});
    expect(third.presentation_id).not.toBe(generatedId);
    await ok('switch_presentation', { presentation_id: generatedId });

    await ok('add_slide', { layout_index: 5, title: 'Alpha slide', presentation_id: 'deck_a' });
    await ok('add_slide', { layout_index: 5, title: 'Beta slide' }); // current = generated deck
    await ok('manage_text', { operation: 'add', slide_index: 0, text: 'alpha body', presentation_id: 'deck_a' });
    await ok('manage_text', { operation: 'add', slide_index: 0, text: 'beta body', presentation_id: generatedId });
    await ok('save_presentation', { file_path: 'a.pptx', presentation_id: 'deck_a' });
    await ok('save_presentation', { file_path: 'b', presentation_id: generatedId });

    const a = await readDeck(path.join(work, 'a.pptx'));
    const b = await readDeck(path.join(work, 'b.pptx'));
    expect(a.slides).toHaveLength(1);
    expect(b.slides).toHaveLength(1);
    expect(a.slides[0]).toContain('Alpha slide');
    expect(a.slides[0]).toContain('alpha body');
    expect(a.slides[0]).not.toContain('beta');
    expect(b.slides[0]).toContain('Beta slide');
    expect(b.slides[0]).not.toContain('alpha');

    const listed = (await ok('list_presentations', {})).presentations as Array<{ id: string; current: boolean; slide_count: number }>;
    expect(listed.find((entry) => entry.current)?.id).toBe(generatedId);
    const extracted = await ok('extract_presentation_text', { presentation_id: 'deck_a' });
    expect(extracted.all_text).toBe('Alpha slide\nalpha body');
  });

  it('formats text, validates fit and renders a chart template', async () => {
    await ok('create_presentation', { id: 'deck_format' });
    await ok('add_slide', { layout_index: 6 });
    const added = await ok('manage_text', {
      operation: 'add',
      slide_index: 0,
      left: 1,
      top: 1,
      width: 3,
      height: 0.6,
      text: 'A long sentence that cannot fit in a small box at a large size',
      font_size: 40,
      min_font_size: 10,
    });
    expect(Number(added.font_size)).toBeLessThan(40);
    const check = await ok('manage_text', { operation: 'validate', slide_index: 0, shape_index: 0, font_size: 40 });
    expect(check).toMatchObject({ fits: false });
    await ok('manage_text', {
      operation: 'format_runs',
      slide_index: 0,
      shape_index: 0,
      text_runs: [
        { text: 'Bold part ', bold: true },
        { text: 'red part', color: [255, 0, 0] },
      ],
    });
    const logo = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#ff8800' } })
      .png()
      .toBuffer();
    const placed = await ok('manage_image', {
      slide_index: 0,
      operation: 'add',
      image_source: logo.toString('base64'),
      source_type: 'base64',
      left: 9,
      top: 6,
      width: 2,
    });
    expect(placed.box).toEqual({ left: 9, top: 6, width: 2, height: 1 }); // height from the 2:1 aspect ratio
    await ok('create_slide_from_template', {
      template_id: 'chart_slide',
      content_mapping: { title: 'Sales', chart: { type: 'bar', categories: ['Q1', 'Q2'], series: [{ name: 'EU', values: [3, 5] }] } },
    });
    await ok('save_presentation', { file_path: 'format.pptx' });
    const deck = await readDeck(path.join(work, 'format.pptx'));
    expect(deck.slides[0]).toBe('Bold part  red part');
    expect((await deck.zip.file('ppt/slides/slide1.xml')?.async('string')) ?? '').toContain('FF0000');
    expect(Object.keys(deck.zip.files).some((name) => /^ppt\/charts\/chart\d+\.xml$/.test(name))).toBe(true);
    expect(deck.media.some((bytes) => bytes.equals(logo))).toBe(true);
  });

  it('answers bad input with clear errors', async () => {
    await ok('create_presentation', { id: 'deck_errors' });
    const range = await call('manage_image', { slide_index: 1, operation: 'add', image_source: path.join(work, 'chart.png') });
    expect(range.isError).toBe(true);
    expect(range.text).toContain('slide_index 1 is out of range');
    const unknown = await call('add_slide', { title: 'x', presentation_id: 'no_such_deck' });
    expect(unknown.text).toContain('presentation "no_such_deck" not found');
    const template = await call('create_slide_from_template', { template_id: 'bogus' });
    expect(template.text).toContain('unknown template_id "bogus"');
    const outside = await call('save_presentation', { file_path: '/etc/m3-deck.pptx' });
    expect(outside.isError).toBe(true);
    expect(outside.text).toContain('outside the allowed folders');
    const traversal = await call('save_presentation', { file_path: '../../../../etc/m3-deck.pptx' });
    expect(traversal.text).toContain('outside the allowed folders');
  });

  it.skipIf(!assets)(`embeds a real photo through a template${assets ? '' : ` (${missingAssetsMessage})`}`, async () => {
    const photo = path.join(assets ?? '', 'images/detection/beagles.jpg');
    await ok('create_presentation', { id: 'deck_photo' });
    const built = await ok('create_slide_from_template', {
      template_id: 'text_with_image',
      content_mapping: { title: 'Beagles', content: 'Two dogs' },
      image_paths: { image: photo },
    });
    expect(built.filled).toEqual(['title', 'content', 'image']);
    await ok('save_presentation', { file_path: 'photo.pptx' });
    const deck = await readDeck(path.join(work, 'photo.pptx'));
    const photoBytes = await readFile(photo);
    const meta = await sharp(photoBytes).metadata();
    const embedded = deck.media.find((bytes) => bytes.equals(photoBytes));
    // Upright photos are embedded byte for byte; rotated ones are re-encoded upright.
    if ((meta.orientation ?? 1) === 1) expect(embedded).toBeDefined();
    else expect(deck.media.length).toBeGreaterThan(1);
    expect(deck.slides[0]).toContain('Two dogs');
  });

  it('builds tables, shapes, connectors, charts, bullets, links and transitions into the saved deck', async () => {
    await ok('create_presentation', { id: 'deck_structure' });
    await ok('add_slide', { layout_index: 1, title: 'Structure' });
    const table = await ok('add_table', {
      slide_index: 0,
      rows: 2,
      cols: 2,
      left: 1,
      top: 2,
      width: 5,
      height: 1.5,
      data: [
        ['Item', 'Price'],
        ['Tea', '2.50'],
      ],
      header_bg_color: [0, 120, 215],
    });
    await ok('format_table_cell', { slide_index: 0, shape_index: Number(table.shape_index), row: 1, col: 1, bold: true, color: [200, 0, 0] });
    await ok('add_shape', {
      slide_index: 0,
      shape_type: 'rounded_rectangle',
      left: 7,
      top: 2,
      width: 3,
      height: 1,
      fill_color: [255, 200, 0],
      text: 'Callout',
    });
    await ok('add_connector', { slide_index: 0, connector_type: 'arrow', start_x: 6, start_y: 2.5, end_x: 7, end_y: 2.5, color: [0, 0, 0] });
    const chart = await ok('add_chart', {
      slide_index: 0,
      chart_type: 'column',
      left: 1,
      top: 4,
      width: 6,
      height: 3,
      categories: ['Q1', 'Q2'],
      series_names: ['Sales'],
      series_values: [[3, 5]],
      title: 'Sales',
    });
    await ok('update_chart_data', {
      slide_index: 0,
      shape_index: Number(chart.shape_index),
      categories: ['Q1', 'Q2', 'Q3'],
      series_data: [{ name: 'Sales', values: [3, 5, 8] }],
    });
    await ok('add_slide', { layout_index: 1 });
    await ok('populate_placeholder', { slide_index: 1, placeholder_idx: 0, text: 'Agenda' });
    await ok('add_bullet_points', { slide_index: 1, placeholder_idx: 1, bullet_points: ['First point', 'Second point'] });
    const body = (await ok('get_slide_info', { slide_index: 1 })).shapes as Array<{ shape_index: number; role?: string }>;
    const bodyIndex = body.find((shape) => shape.role === 'body')?.shape_index;
    await ok('manage_hyperlinks', { operation: 'add', slide_index: 1, shape_index: bodyIndex, text: ' (source)', url: 'https://example.org/agenda' });
    expect((await ok('manage_hyperlinks', { operation: 'list', slide_index: 1 })).hyperlinks).toEqual([
      { shape_index: bodyIndex, run_index: 1, text: ' (source)', url: 'https://example.org/agenda' },
    ]);
    await ok('manage_slide_transitions', { slide_index: 1, operation: 'set', transition_type: 'fade', duration: 0.5 });
    expect(await ok('optimize_slide_text', { slide_index: 1 })).toMatchObject({ message: 'Optimized 2 text shapes on slide 1' });
    const shape = await call('add_shape', { slide_index: 0, shape_type: 'blob', left: 0, top: 0, width: 1, height: 1 });
    expect(shape.text).toContain("Unsupported shape type: 'blob'");
    await ok('save_presentation', { file_path: 'structure.pptx' });
    const deck = await readDeck(path.join(work, 'structure.pptx'));
    expect(deck.slides[0]).toContain('Item Price Tea 2.50');
    expect(deck.slides[0]).toContain('Callout');
    expect(deck.slides[1]).toBe('Agenda First point Second point  (source)');
    const slide1 = (await deck.zip.file('ppt/slides/slide1.xml')?.async('string')) ?? '';
    expect(slide1).toContain('C80000'); // the formatted cell's colour
    expect(slide1).toContain('prst="roundRect"');
    const slide2 = (await deck.zip.file('ppt/slides/slide2.xml')?.async('string')) ?? '';
    expect(slide2).toMatch(/<p:transition spd="fast" p14:dur="500"[^>]*><p:fade\/><\/p:transition>/);
    expect(slide2).toContain('<a:buChar');
    expect((await deck.zip.file('ppt/slides/_rels/slide2.xml.rels')?.async('string')) ?? '').toContain('https://example.org/agenda');
    const chartXml = (await deck.zip.file(Object.keys(deck.zip.files).find((name) => /^ppt\/charts\/chart\d+\.xml$/.test(name)) ?? '')?.async('string')) ?? '';
    expect(chartXml).toContain('Q3');
  });

  it('generates outline decks from templates and restyles them, labelling placeholder text as such', async () => {
    const generated = await ok('auto_generate_presentation', { topic: 'Urban cycling', slide_count: 3, presentation_id: 'deck_auto' });
    expect(generated).toMatchObject({ presentation_id: 'deck_auto', slide_count: 3 });
    const text = await ok('extract_presentation_text', {});
    expect(text.all_text).toContain('Urban cycling');
    expect(text.all_text).toContain('[Key points for this section]');
    expect((await ok('get_slide_info', { slide_index: 2 })).shapes).toContainEqual(expect.objectContaining({ kind: 'chart', chart_type: 'bar' }));
    const sequence = await ok('create_presentation_from_templates', {
      template_sequence: [
        { template_id: 'title_slide', content_mapping: { title: 'Hello' } },
        { template_id: 'two_column_text', content_mapping: { title: 'Two', left_content: 'L', right_content: 'R' } },
      ],
    });
    expect(sequence.slide_count).toBe(2);
    await ok('apply_slide_template', { slide_index: 1, template_id: 'section_header', content_mapping: { title: 'Section' } });
    expect((await ok('extract_slide_text', { slide_index: 1 })).texts).toEqual(['Section']);
    expect(await ok('apply_professional_design', { operation: 'theme', color_scheme: 'warm_red' })).toMatchObject({
      message: 'Applied the warm_red theme to 2 slides',
    });
    expect((await ok('manage_slide_masters', { operation: 'get_layouts' })).layouts).toHaveLength(9);
    expect(await ok('get_template_info', { template_id: 'chart_slide' })).toMatchObject({ id: 'chart_slide', content_keys: ['title', 'chart'] });
    expect((await ok('get_server_info', {})).not_available).toEqual([]);
  });

  it('opens a saved .pptx (texts, pictures, layouts, properties), saves it again, and reads templates without opening them', async () => {
    await ok('create_presentation', { id: 'source_deck' });
    await ok('set_core_properties', { title: 'Source & deck', author: 'Tester' });
    await ok('add_slide', { layout_index: 0, title: 'First title' });
    await ok('add_slide', { layout_index: 1, title: 'Second' });
    await ok('manage_image', {
      slide_index: 1,
      operation: 'add',
      image_source: path.join(work, 'chart.png'),
      source_type: 'file',
      left: 1,
      top: 2,
      width: 4,
      height: 2.5,
    });
    await ok('manage_text', { operation: 'add', slide_index: 1, left: 6, top: 2, width: 5, height: 1, text: 'Line one <a> & b' });
    const source = String((await ok('save_presentation', { file_path: 'source_deck.pptx' })).file_path);

    const opened = await ok('open_presentation', { file_path: source, id: 'reopened' });
    expect(opened).toMatchObject({ presentation_id: 'reopened', slide_count: 2, slide_size_inches: { width: 13.333, height: 7.5 } });
    const info = await ok('get_slide_info', { slide_index: 1, presentation_id: 'reopened' });
    const shapes = info.shapes as Array<Record<string, unknown>>;
    expect(shapes).toContainEqual(expect.objectContaining({ kind: 'text', role: 'title', text: 'Second' }));
    expect(shapes).toContainEqual(expect.objectContaining({ kind: 'text', role: 'textbox', text: 'Line one <a> & b', left: 6, top: 2, width: 5, height: 1 }));
    expect(shapes).toContainEqual(expect.objectContaining({ kind: 'image', media_type: 'image/png', left: 1, top: 2, width: 4, height: 2.5 }));
    expect((await ok('get_presentation_info', { presentation_id: 'reopened' })).properties).toMatchObject({ title: 'Source & deck', author: 'Tester' });
    // The opened deck is the current one: an edit and a save write a readable .pptx again.
    await ok('add_slide', { layout_index: 1, title: 'Added after opening' });
    const again = await readDeck(String((await ok('save_presentation', { file_path: 'reopened.pptx' })).file_path));
    expect(again.slides).toHaveLength(3);
    expect(again.slides[0]).toContain('First title');
    expect(again.slides[1]).toContain('Line one <a> & b');
    expect(again.slides[2]).toContain('Added after opening');
    expect(again.media.some((bytes) => bytes.subarray(1, 4).toString('latin1') === 'PNG')).toBe(true);

    const template = await ok('get_template_file_info', { template_path: source });
    expect(template).toMatchObject({
      template_path: source,
      slide_count: 2,
      slide_size_inches: { width: 13.333, height: 7.5 },
      core_properties: { title: 'Source & deck' },
    });
    expect(template.layout_count).toBe((template.layouts as unknown[]).length);
    expect(template.layout_count).toBeGreaterThan(0);
    const fromTemplate = await ok('create_presentation_from_template', { template_path: source });
    expect(fromTemplate).toMatchObject({ template_path: source, slide_count: 2, layout_count: template.layout_count });
    expect((await ok('extract_presentation_text', { presentation_id: String(fromTemplate.presentation_id) })).all_text).toContain('First title');

    expect((await call('open_presentation', { file_path: path.join(work, 'missing.pptx') })).text).toContain('File not found');
    expect((await call('get_template_file_info', { template_path: path.join(work, 'chart.png') })).text).toContain(
      'is not a .pptx/.potx file (not a zip archive)',
    );
  });

  it('applies picture effects the reference way and writes them into the saved picture', async () => {
    await ok('create_presentation', { id: 'effects_deck' });
    await ok('add_slide', { layout_index: 6 });
    await ok('manage_image', {
      slide_index: 0,
      operation: 'add',
      image_source: path.join(work, 'chart.png'),
      source_type: 'file',
      left: 1,
      top: 1,
      width: 4,
      height: 2.5,
    });
    await ok('manage_text', { operation: 'add', slide_index: 0, left: 6, top: 1, width: 4, height: 1, text: 'not a picture' });
    const applied = await ok('apply_picture_effects', {
      slide_index: 0,
      shape_index: 0,
      effects: {
        shadow: { blur_radius: 6, direction: 45 },
        glow: {},
        reflection: { size: 0.3 },
        soft_edges: { radius: 1 },
        rotation: { rotation: 15 },
        bevel: {},
        sparkle: {},
      },
    });
    expect(applied).toEqual({
      message: 'Applied 5 effects to shape 0 on slide 0',
      applied_effects: ['shadow', 'glow', 'reflection', 'soft_edges', 'rotation'],
      warnings: [expect.stringContaining('Failed to apply bevel effect'), 'Unknown effect type: sparkle'],
    });
    const deck = await readDeck(String((await ok('save_presentation', { file_path: 'effects.pptx' })).file_path));
    const slide = (await deck.zip.file('ppt/slides/slide1.xml')?.async('string')) ?? '';
    const picture = /<p:pic>[\s\S]*?<\/p:pic>/.exec(slide)?.[0] ?? '';
    // Defaults and units as the reference's: glow 5 pt of 00B0F0 at 40 % transparency; shadow 6 pt blur, 3 pt away at 45 degrees, 60 % transparent.
    expect(picture).toContain('<a:effectLst><a:glow rad="63500"><a:srgbClr val="00B0F0"><a:alpha val="60000"/></a:srgbClr></a:glow>');
    expect(picture).toContain(
      '<a:outerShdw blurRad="76200" dist="38100" dir="2700000" algn="ctr" rotWithShape="0"><a:srgbClr val="000000"><a:alpha val="40000"/></a:srgbClr></a:outerShdw>',
    );
    expect(picture).toContain('<a:reflection blurRad="50800" stA="50000" endPos="30000"');
    expect(picture).toContain('<a:softEdge rad="12700"/></a:effectLst></p:spPr>');
    expect(picture).toContain('rot="900000"');
    expect((await call('apply_picture_effects', { slide_index: 0, shape_index: 1, effects: { glow: {} } })).text).toContain(
      'shape 1 on slide 0 is a text, not a picture',
    );
    expect((await call('apply_picture_effects', { slide_index: 0, shape_index: 5, effects: {} })).text).toContain(
      'Invalid shape index: 5. Available shapes: 0-1',
    );
  });
});

/** A minimal TrueType file: the sfnt directory, `maxp` (glyph count) and `name` (family, style as Windows UTF-16BE records). */
function tinyFont(family: string, style: string, glyphs: number): Buffer {
  const strings = [family, style].map((text) => Buffer.from(text, 'utf16le').swap16());
  const name = Buffer.alloc(6 + 2 * 12 + strings.reduce((sum, item) => sum + item.length, 0));
  name.writeUInt16BE(0, 0);
  name.writeUInt16BE(2, 2);
  name.writeUInt16BE(30, 4);
  let offset = 0;
  strings.forEach((text, index) => {
    const record = 6 + index * 12;
    for (const [at, value] of [3, 1, 0x409, index + 1, text.length, offset].entries()) name.writeUInt16BE(value, record + at * 2);
    text.copy(name, 30 + offset);
    offset += text.length;
  });
  const maxp = Buffer.alloc(6);
  maxp.writeUInt32BE(0x00005000, 0);
  maxp.writeUInt16BE(glyphs, 4);
  const header = Buffer.alloc(12 + 2 * 16);
  header.writeUInt32BE(0x00010000, 0);
  header.writeUInt16BE(2, 4);
  const tables: Array<[string, Buffer]> = [
    ['maxp', maxp],
    ['name', name],
  ];
  let at = header.length;
  tables.forEach(([tag, body], index) => {
    const entry = 12 + index * 16;
    header.write(tag, entry, 'latin1');
    header.writeUInt32BE(at, entry + 8);
    header.writeUInt32BE(body.length, entry + 12);
    at += body.length;
  });
  return Buffer.concat([header, ...tables.map(([, body]) => body)]);
}

describe('ppt manage_fonts', () => {
  it('analyzes, recommends and optimizes a font file as the reference answers, and says what it cannot do', async () => {
    const font = path.join(work, 'tiny-sans.ttf');
    const bytes = tinyFont('Tiny Sans', 'Bold', 42);
    await writeFile(font, bytes);
    expect(await ok('manage_fonts', { operation: 'analyze', font_path: font })).toEqual({
      file_path: font,
      font_family: 'Tiny Sans',
      font_style: 'Bold',
      num_glyphs: 42,
      file_size: bytes.length,
      analysis_success: true,
    });
    const recommended = await ok('manage_fonts', { operation: 'recommend', font_path: font });
    expect(recommended).toMatchObject({
      presentation_type: 'business',
      font_analysis: { font_family: 'Tiny Sans' },
      recommendations: { recommended_sizes: { title: '24-36pt' } },
    });
    const optimized = await ok('manage_fonts', { operation: 'optimize', font_path: font, output_path: 'fonts/tiny-out.ttf' });
    expect(optimized).toMatchObject({ original_path: font, optimized_path: path.join(work, 'fonts', 'tiny-out.ttf') });
    expect(await readFile(path.join(work, 'fonts', 'tiny-out.ttf'))).toEqual(bytes);
    expect((await call('manage_fonts', { operation: 'optimize', font_path: font, text_content: 'abc' })).text).toContain('needs a font subsetter');
    expect((await call('manage_fonts', { operation: 'shrink', font_path: font })).text).toContain(
      "Invalid operation: shrink. Must be 'analyze', 'optimize', or 'recommend'",
    );
    const notFont = await ok('manage_fonts', { operation: 'analyze', font_path: path.join(work, 'chart.png') });
    expect(notFont).toMatchObject({ analysis_success: false, error: expect.stringContaining('is not a TrueType/OpenType font') });
  });
});
