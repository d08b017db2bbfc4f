// The barcode formats this server names, with the aliases agents use for them ("EAN-13",
// "qr_code", "Code 128", "I2of5"), how to read them (zxing-wasm format names) and how to draw
// them (the `qrcode` package for QR, a bwip-js symbology otherwise). Generation also accepts any
// other bwip-js symbology id; scanning also accepts any zxing-wasm format name.
import bwipjs from 'bwip-js';
import { READABLE_BARCODE_FORMATS } from 'zxing-wasm/reader';

export class BarcodeArgumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BarcodeArgumentError';
  }
}

export interface NamedFormat {
  /** zxing-wasm's canonical name, also what scan results report. */
  name: string;
  dimension: 'linear' | 'matrix';
  aliases: string[];
  /** bwip-js symbology id; QR codes are drawn with the `qrcode` package instead. */
  bcid: string;
  /** Extra bwip-js options the reader needs (e.g. Code 93's check characters are mandatory for zxing). */
  bwipOptions?: Record<string, boolean | number | string>;
  example: string;
}

export const namedFormats: readonly NamedFormat[] = [
  { name: 'QRCode', dimension: 'matrix', aliases: ['qr', 'qrcode', 'qr_code'], bcid: 'qrcode', example: 'https://example.org' },
  { name: 'EAN13', dimension: 'linear', aliases: ['ean13', 'ean', 'jan', 'gtin13'], bcid: 'ean13', example: '5901234123457' },
  { name: 'EAN8', dimension: 'linear', aliases: ['ean8', 'gtin8'], bcid: 'ean8', example: '96385074' },
  { name: 'UPCA', dimension: 'linear', aliases: ['upca', 'upc', 'gtin12'], bcid: 'upca', example: '036000291452' },
  { name: 'UPCE', dimension: 'linear', aliases: ['upce'], bcid: 'upce', example: '01234565' },
  { name: 'Code128', dimension: 'linear', aliases: ['code128', 'c128'], bcid: 'code128', example: 'Hello-128' },
  { name: 'Code39', dimension: 'linear', aliases: ['code39', 'c39', 'code3of9'], bcid: 'code39', example: 'CODE 39' },
  {
    name: 'Code93',
    dimension: 'linear',
    aliases: ['code93', 'c93'],
    bcid: 'code93',
    bwipOptions: { includecheck: true },
    example: 'CODE93',
  },
  { name: 'ITF', dimension: 'linear', aliases: ['itf', 'i2of5', 'interleaved2of5', 'interleaved25'], bcid: 'interleaved2of5', example: '12345678' },
  { name: 'Codabar', dimension: 'linear', aliases: ['codabar', 'nw7', 'rationalizedcodabar'], bcid: 'rationalizedCodabar', example: 'A40156B' },
  { name: 'DataMatrix', dimension: 'matrix', aliases: ['datamatrix', 'dm'], bcid: 'datamatrix', example: 'Data Matrix' },
  { name: 'PDF417', dimension: 'matrix', aliases: ['pdf417'], bcid: 'pdf417', example: 'PDF417 text' },
  { name: 'Aztec', dimension: 'matrix', aliases: ['aztec', 'azteccode'], bcid: 'azteccode', example: 'Aztec text' },
];

/** "EAN-13", "ean_13" and "Ean 13" all become "ean13". */
function toKey(value: string): string {
  return value.toLowerCase().replace(/[^a-z0-9]/g, '');
}

function findNamedFormat(value: string): NamedFormat | undefined {
  const key = toKey(value);
  return namedFormats.find((format) => toKey(format.name) === key || format.aliases.includes(key));
}

const namedList = namedFormats.map((format) => format.name).join(', ');

/** Maps user-supplied format names to zxing-wasm reader format names. */
export function toReaderFormats(values: readonly string[] | undefined): string[] {
  if (!values || values.length === 0) return [];
  return values.map((value) => {
    const named = findNamedFormat(value);
    if (named) return named.name;
    const readable = READABLE_BARCODE_FORMATS.find((format) => toKey(format) === toKey(value));
    if (readable) return readable;
    throw new BarcodeArgumentError(
      `formats: "${value}" is not a barcode format this reader knows; use ${namedList} (or another zxing format such as ${READABLE_BARCODE_FORMATS.slice(0, 6).join(', ')})`,
    );
  });
}

export interface GenerationTarget {
  /** The name reported back: a named format's canonical name, or the bwip-js symbology id. */
  name: string;
  generator: 'qrcode' | 'bwip';
  bcid: string;
  dimension: 'linear' | 'matrix' | 'other';
  bwipOptions: Record<string, boolean | number | string>;
}

export function toGenerationTarget(value: string): GenerationTarget {
  const named = findNamedFormat(value);
  if (named) {
    return {
      name: named.name,
      generator: named.name === 'QRCode' ? 'qrcode' : 'bwip',
      bcid: named.bcid,
      dimension: named.dimension,
      bwipOptions: named.bwipOptions ?? {},
    };
  }
  const symbol = bwipjs.symbolList.find((entry) => entry.bcid.toLowerCase() === value.trim().toLowerCase());
  if (symbol) return { name: symbol.bcid, generator: 'bwip', bcid: symbol.bcid, dimension: 'other', bwipOptions: {} };
  throw new BarcodeArgumentError(
    `format: "${value}" is not a barcode format this generator knows; use ${namedList} or a bwip-js symbology id (e.g. gs1-128, maxicode, microqrcode)`,
  );
}
