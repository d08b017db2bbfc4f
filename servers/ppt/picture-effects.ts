// apply_picture_effects: the reference's effect names and defaults (shadow, reflection, glow,
// soft_edges, rotation, transparency; sizes in points, directions in degrees, transparency
// 0..1), kept on the picture and written at save time: rotation and transparency through
// pptxgenjs, the rest as DrawingML <a:effectLst> in the picture's shape properties, which
// pptxgenjs does not write. `bevel` and `filter` are named in the warnings, not written.
import type JSZip from 'jszip';
import { type PictureEffects, type Presentation, toHex } from './model.js';

const emuPerPoint = 12_700;
const number = (value: unknown, fallback: number): number => (typeof value === 'number' && Number.isFinite(value) ? value : fallback);
const colour = (value: unknown, fallback: number[]): number[] =>
  Array.isArray(value) && value.length >= 3 && value.every((item) => typeof item === 'number') ? (value as number[]) : fallback;

type Params = Record<string, unknown>;

/** One effect into `effects`; returns the warning for an effect this server does not write. */
function applyOne(effects: PictureEffects, type: string, params: Params): string | undefined {
  switch (type) {
    case 'shadow':
      effects.shadow = {
        inner: params.shadow_type === 'inner',
        blurRadius: number(params.blur_radius, 4),
        distance: number(params.distance, 3),
        direction: number(params.direction, 315),
        color: colour(params.color, [0, 0, 0]),
        transparency: number(params.transparency, 0.6),
      };
      return undefined;
    case 'reflection':
      effects.reflection = {
        size: number(params.size, 0.5),
        transparency: number(params.transparency, 0.5),
        distance: number(params.distance, 0),
        blur: number(params.blur, 4),
      };
      return undefined;
    case 'glow':
      effects.glow = { size: number(params.size, 5), color: colour(params.color, [0, 176, 240]), transparency: number(params.transparency, 0.4) };
      return undefined;
    case 'soft_edges':
      effects.softEdges = { radius: number(params.radius, 2.5) };
      return undefined;
    case 'rotation':
      effects.rotation = number(params.rotation, 0);
      return undefined;
    case 'transparency':
      effects.transparency = Math.min(1, Math.max(0, number(params.transparency, 0)));
      return undefined;
    case 'bevel':
    case 'filter':
      return `Failed to apply ${type} effect: not written by this server (pptxgenjs and the DrawingML it writes have no ${type})`;
    default:
      return `Unknown effect type: ${type}`;
  }
}

/** The reference's loop: each known effect applied and listed, the others named in warnings. */
export function mergeEffects(
  current: PictureEffects | undefined,
  requested: Record<string, unknown>,
): { effects: PictureEffects; applied: string[]; warnings: string[] } {
  const effects: PictureEffects = { ...current };
  const applied: string[] = [];
  const warnings: string[] = [];
  for (const [type, params] of Object.entries(requested)) {
    const warning = applyOne(effects, type, params && typeof params === 'object' && !Array.isArray(params) ? (params as Params) : {});
    if (warning) warnings.push(warning);
    else applied.push(type);
  }
  return { effects, applied, warnings };
}

const alpha = (transparency: number): number => Math.round((1 - Math.min(1, Math.max(0, transparency))) * 100_000);
const emu = (points: number): number => Math.round(points * emuPerPoint);
const filled = (rgb: number[], transparency: number): string => `<a:srgbClr val="${toHex(rgb)}"><a:alpha val="${alpha(transparency)}"/></a:srgbClr>`;

/** <a:effectLst> in schema order (glow, innerShdw, outerShdw, reflection, softEdge); empty when none. */
function effectListXml(effects: PictureEffects): string {
  const parts: string[] = [];
  if (effects.glow) parts.push(`<a:glow rad="${emu(effects.glow.size)}">${filled(effects.glow.color, effects.glow.transparency)}</a:glow>`);
  const shadow = effects.shadow;
  if (shadow?.inner)
    parts.push(
      `<a:innerShdw blurRad="${emu(shadow.blurRadius)}" dist="${emu(shadow.distance)}" dir="${Math.round(shadow.direction * 60_000)}">${filled(shadow.color, shadow.transparency)}</a:innerShdw>`,
    );
  if (shadow && !shadow.inner)
    parts.push(
      `<a:outerShdw blurRad="${emu(shadow.blurRadius)}" dist="${emu(shadow.distance)}" dir="${Math.round(shadow.direction * 60_000)}" algn="ctr" rotWithShape="0">${filled(shadow.color, shadow.transparency)}</a:outerShdw>`,
    );
  const reflection = effects.reflection;
  if (reflection)
    parts.push(
      `<a:reflection blurRad="${emu(reflection.blur)}" stA="${alpha(reflection.transparency)}" endPos="${Math.round(Math.min(1, Math.max(0, reflection.size)) * 100_000)}" dist="${emu(reflection.distance)}" dir="5400000" sy="-100000" algn="bl" rotWithShape="0"/>`,
    );
  if (effects.softEdges) parts.push(`<a:softEdge rad="${emu(effects.softEdges.radius)}"/>`);
  return parts.length > 0 ? `<a:effectLst>${parts.join('')}</a:effectLst>` : '';
}

/** Writes each picture's effect list into its <p:pic> (pictures are rendered in element order). */
export async function addPictureEffects(zip: JSZip, presentation: Presentation): Promise<void> {
  for (const [index, slide] of presentation.slides.entries()) {
    const lists = slide.elements.flatMap((element) => (element.kind === 'image' ? [element.effects ? effectListXml(element.effects) : ''] : []));
    if (!lists.some(Boolean)) continue;
    const name = `ppt/slides/slide${index + 1}.xml`;
    const xml = await zip.file(name)?.async('string');
    if (!xml) continue;
    let picture = 0;
    const written = xml.replace(/<p:pic>[\s\S]*?<\/p:pic>/g, (pic) => {
      const list = lists[picture] ?? '';
      picture += 1;
      return list ? pic.replace('</p:spPr>', `${list}</p:spPr>`) : pic;
    });
    zip.file(name, written);
  }
}
