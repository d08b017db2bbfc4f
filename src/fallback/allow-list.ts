// Which tools the fallback layer may ever mock: those with a curated fixture, those on the
// allow-list (the reference's default list plus M3_MOCK_ALLOW, where `*` means every tool), and
// never a vision, OCR, barcode, image-editing, ppt or excel server. A tool whose name or
// parameters say it reads or writes files or images is served only by its committed fixture,
// never by the allow-list or the simulator. A mocked caption of an image the tool never saw, or
// a file that was never written, would be a fabricated fact.
import type { CatalogTool } from '../mcp/types.js';
import type { FixtureSet } from './fixtures.js';

/** The reference's allow-list (tools/mock_fallback.py `_MOCKABLE`): dict-like web lookups. */
export const defaultAllowList: readonly string[] = [
  'amazon/search_products',
  'amazon/get_product',
  'car-price/get_car_brands',
  'car-price/search_brand_model_price',
  'nasa-mcp/get_solar_flare',
  'nasa-mcp/get_coronal_mass_ejection',
  'nasa-mcp/get_notifications',
  'paper_search/search_arxiv',
];

/** Servers whose tools are never mocked, whatever the allow-list or fixtures say. */
export const neverMockedServers: readonly string[] = ['mcp-yolo', 'dinox-mcp', 'ocr', 'pyzbar-mcp', 'imagesorcery-mcp', 'ppt', 'excel'];

// Words in a tool name that mean its output is an image or a file.
const imageOrFileNameWords = new Set([
  'image',
  'images',
  'imagery',
  'img',
  'photo',
  'photos',
  'picture',
  'pictures',
  'screenshot',
  'download',
  'thumbnail',
  'tile',
  'heatmap',
]);
// Words in a parameter name that mean the tool reads or writes a file or an image.
const fileParameterWords = new Set(['file', 'files', 'filepath', 'filename', 'image', 'images', 'img', 'photo']);
const pathWords = new Set(['path', 'paths', 'dir', 'directory', 'folder']);
const pathQualifiers = new Set(['save', 'output', 'out', 'input', 'dest', 'destination', 'target', 'source']);
const outputFlagWords = new Set(['return', 'include', 'with', 'save', 'download']);

/** `save_path` → [save, path]; `imageFileUri` → [image, file, uri]. */
function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

function parameters(schema: Record<string, unknown>): Array<[string, Record<string, unknown>]> {
  const properties = schema.properties;
  if (!properties || typeof properties !== 'object') return [];
  return Object.entries(properties as Record<string, unknown>).map(([name, value]) => [
    name,
    value && typeof value === 'object' ? (value as Record<string, unknown>) : {},
  ]);
}

/**
 * A parameter naming a file or an image: a path or data argument (`save_path`, `image_data`,
 * `filepath`), or a flag that asks for one in the output (`returnImage`). Counts and filters
 * (`image_count`, `hasImages`) only describe images and do not count.
 */
function namesFileOrImage(name: string, schema: Record<string, unknown>): boolean {
  const parts = words(name);
  const fileWord = parts.some((word) => fileParameterWords.has(word));
  if (schema.type === 'boolean') return fileWord && parts.some((word) => outputFlagWords.has(word));
  if (schema.type === 'integer' || schema.type === 'number') return false;
  return fileWord || (parts.some((word) => pathWords.has(word)) && parts.some((word) => pathQualifiers.has(word)));
}

/** Why a tool works on images or files (so nothing but a curated fixture may stand in for it), or undefined. */
function imageOrFileReason(tool: Pick<CatalogTool, 'tool' | 'inputSchema'>): string | undefined {
  const nameWords = words(tool.tool);
  const nameHit = nameWords.find((word) => imageOrFileNameWords.has(word));
  if (nameHit) return `its name says it returns images or files ("${nameHit}")`;
  if (/static_?map|street_?view/i.test(tool.tool)) return 'it returns an image';
  for (const [parameter, schema] of parameters(tool.inputSchema)) {
    if (namesFileOrImage(parameter, schema)) return `its parameter "${parameter}" names a file or an image`;
  }
  return undefined;
}

/** Why a tool must never be mocked by the allow-list or the simulator, or undefined when it may be. */
export function neverMockedReason(tool: Pick<CatalogTool, 'server' | 'tool' | 'inputSchema'>): string | undefined {
  if (neverMockedServers.includes(tool.server)) return `server ${tool.server} works on images or files`;
  return imageOrFileReason(tool);
}

/**
 * `restricted`: the tool works on images or files, and a committed fixture is the only thing
 * that may stand in for it (a person wrote that text return on purpose, e.g. a museum object's
 * record without its picture); the simulator never invents one.
 */
export type MockDecision = { mockable: true; via: 'fixture' | 'allow-list'; restricted?: string } | { mockable: false; reason: string };

/** The allow-list entry that allows every tool the never-mocked rules leave (offline runs). */
const allowEverything = '*';

export class AllowList {
  private readonly entries: ReadonlySet<string>;

  constructor(
    extra: readonly string[],
    private readonly fixtures: FixtureSet,
  ) {
    this.entries = new Set([...defaultAllowList, ...extra]);
  }

  /** Every allow-list entry (defaults first, then the configured ones). */
  list(): string[] {
    return [...this.entries];
  }

  decide(tool: Pick<CatalogTool, 'canonicalName' | 'server' | 'tool' | 'inputSchema'>): MockDecision {
    if (neverMockedServers.includes(tool.server)) return { mockable: false, reason: `never mocked: server ${tool.server} works on images or files` };
    const imageOrFile = imageOrFileReason(tool);
    const curated = this.fixtures.tools.has(tool.canonicalName);
    if (imageOrFile)
      return curated
        ? { mockable: true, via: 'fixture', restricted: imageOrFile }
        : { mockable: false, reason: `never mocked without a fixture: ${imageOrFile}` };
    if (curated) return { mockable: true, via: 'fixture' };
    if (this.entries.has(allowEverything) || this.entries.has(tool.canonicalName) || this.entries.has(`${tool.server}/*`))
      return { mockable: true, via: 'allow-list' };
    return { mockable: false, reason: 'no fixture and not on the allow-list (M3_MOCK_ALLOW adds tools)' };
  }
}
