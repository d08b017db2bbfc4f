// Is an embedded ICC profile sRGB in all but name? sharp converts every image with an embedded
// profile to sRGB through lcms, and for the sRGB profiles cameras and editors embed that is a
// pass over every decoded pixel which changes none of them (bit-identical on the shared photos)
// yet cost about 20 ms per 0.4-megapixel photo, as much as the JPEG decode (npm run bench:vision).
// A profile counts as sRGB when lcms would use its matrix and curves (no lookup tables) and those
// equal sRGB's: the primaries within 1e-3 and every 8-bit level mapped back to itself (within
// half a level) by its curves followed by sRGB's encoding. Anything else, or a profile that cannot
// be read, is not sRGB, and the image keeps the exact conversion.

/** sRGB's primaries adapted to the D50 white of the profile connection space (IEC 61966-2-1 profile). */
const srgbColorants: Record<'rXYZ' | 'gXYZ' | 'bXYZ', readonly [number, number, number]> = {
  rXYZ: [0.436074, 0.222504, 0.013932],
  gXYZ: [0.385065, 0.716879, 0.097105],
  bXYZ: [0.14308, 0.060617, 0.714173],
};
const colorantTolerance = 1e-3;
const lookupTables = ['A2B0', 'A2B1', 'A2B2', 'B2A0', 'B2A1', 'B2A2', 'D2B0', 'B2D0'];

type Tags = Map<string, Buffer>;

function readTags(icc: Buffer): Tags | undefined {
  if (icc.length < 132 || icc.toString('latin1', 36, 40) !== 'acsp') return undefined;
  const count = icc.readUInt32BE(128);
  if (132 + count * 12 > icc.length) return undefined;
  const tags: Tags = new Map();
  for (let index = 0; index < count; index += 1) {
    const entry = 132 + index * 12;
    const [offset, size] = [icc.readUInt32BE(entry + 4), icc.readUInt32BE(entry + 8)];
    if (offset + size > icc.length || size < 8) return undefined;
    tags.set(icc.toString('latin1', entry, entry + 4), icc.subarray(offset, offset + size));
  }
  return tags;
}

const s15Fixed16 = (data: Buffer, at: number) => data.readInt32BE(at) / 65536;

function readXyz(data: Buffer | undefined): [number, number, number] | undefined {
  if (!data || data.length < 20 || data.toString('latin1', 0, 4) !== 'XYZ ') return undefined;
  return [s15Fixed16(data, 8), s15Fixed16(data, 12), s15Fixed16(data, 16)];
}

/** The tone curve of a curveType or parametricCurveType tag, as a function on [0, 1]. */
function readCurve(data: Buffer | undefined): ((x: number) => number) | undefined {
  if (!data || data.length < 12) return undefined;
  const type = data.toString('latin1', 0, 4);
  if (type === 'curv') {
    const count = data.readUInt32BE(8);
    if (data.length < 12 + 2 * count) return undefined;
    if (count === 0) return (x) => x;
    if (count === 1) {
      const gamma = data.readUInt16BE(12) / 256;
      return (x) => x ** gamma;
    }
    const table = Array.from({ length: count }, (_, index) => data.readUInt16BE(12 + 2 * index) / 65535);
    return (x) => {
      const position = x * (count - 1);
      const below = Math.floor(position);
      const above = Math.min(count - 1, below + 1);
      return (table[below] as number) + ((table[above] as number) - (table[below] as number)) * (position - below);
    };
  }
  if (type === 'para') return readParametric(data);
  return undefined;
}

const parameterCounts = [1, 3, 4, 5, 7];

function readParametric(data: Buffer): ((x: number) => number) | undefined {
  const kind = data.readUInt16BE(8);
  const needed = parameterCounts[kind];
  if (needed === undefined || data.length < 12 + 4 * needed) return undefined;
  const [g = 1, a = 1, b = 0, c = 0, d = 0, e = 0, f = 0] = Array.from({ length: needed }, (_, index) => s15Fixed16(data, 12 + 4 * index));
  const power = (x: number) => Math.max(0, a * x + b) ** g;
  switch (kind) {
    case 0:
      return (x) => x ** g;
    case 1:
      return (x) => (x >= -b / a ? power(x) : 0);
    case 2:
      return (x) => (x >= -b / a ? power(x) + c : c);
    case 3:
      return (x) => (x >= d ? power(x) : c * x);
    default:
      return (x) => (x >= d ? power(x) + e : c * x + f);
  }
}

/** sRGB's encoding of a linear value (IEC 61966-2-1). */
const srgbEncode = (linear: number) => (linear <= 0.0031308 ? 12.92 * linear : 1.055 * linear ** (1 / 2.4) - 0.055);

function curveIsSrgb(curve: (x: number) => number): boolean {
  for (let level = 0; level <= 255; level += 1) {
    if (Math.abs(srgbEncode(curve(level / 255)) * 255 - level) > 0.5) return false;
  }
  return true;
}

/** True when converting from `icc` to sRGB would leave 8-bit pixels as they are (see the header). */
export function isSrgbEquivalentProfile(icc: Buffer): boolean {
  try {
    if (icc.toString('latin1', 16, 20) !== 'RGB ' || icc.toString('latin1', 20, 24) !== 'XYZ ') return false;
    const tags = readTags(icc);
    if (!tags || lookupTables.some((name) => tags.has(name))) return false;
    for (const [name, expected] of Object.entries(srgbColorants)) {
      const found = readXyz(tags.get(name));
      if (!found || found.some((value, index) => Math.abs(value - (expected[index] as number)) > colorantTolerance)) return false;
    }
    return ['rTRC', 'gTRC', 'bTRC'].every((name) => {
      const curve = readCurve(tags.get(name));
      return curve !== undefined && curveIsSrgb(curve);
    });
  } catch {
    return false;
  }
}
