// extract_dicom_metadata: reads four string attributes from a DICOM Part 10 file (patient name
// and id, study and series description), as the reference does with dicom-parser. No DICOM
// library is installed, so this is a minimal reader of what those four attributes need: the
// 128-byte preamble and "DICM", the explicit-VR little-endian file meta group, then the data set
// in explicit or implicit VR little endian, skipping sequences (defined or undefined length)
// until the wanted tags have passed. Deflated and big-endian data sets are refused by name.
// Absent attributes are left out of the answer, as JSON.stringify drops dicom-parser's undefined.
import { readFile } from 'node:fs/promises';
import { resolveInputArgument } from '../shared/task-paths.js';
import { type Payload, success } from './reference-shape.js';

const wanted = new Map<number, string>([
  [0x00100010, 'patientName'],
  [0x00100020, 'patientId'],
  [0x00081030, 'studyDescription'],
  [0x0008103e, 'seriesDescription'],
]);
const lastWanted = 0x00100020;
const longVrs = new Set(['OB', 'OD', 'OF', 'OL', 'OV', 'OW', 'SQ', 'SV', 'UC', 'UN', 'UR', 'UT', 'UV']);
const undefinedLength = 0xffffffff;
const itemTag = 0xfffee000;
const itemEnd = 0xfffee00d;
const sequenceEnd = 0xfffee0dd;

class DicomReader {
  offset: number;
  constructor(
    private readonly bytes: Buffer,
    start: number,
    public explicit: boolean,
  ) {
    this.offset = start;
  }

  get done(): boolean {
    return this.offset + 8 > this.bytes.length;
  }

  /** Reads one element header: its tag, VR (explicit only) and value length. */
  header(): { tag: number; vr: string | undefined; length: number } {
    const group = this.bytes.readUInt16LE(this.offset);
    const element = this.bytes.readUInt16LE(this.offset + 2);
    const tag = ((group << 16) | element) >>> 0;
    this.offset += 4;
    if (group === 0xfffe || !this.explicit) {
      const length = this.bytes.readUInt32LE(this.offset);
      this.offset += 4;
      return { tag, vr: undefined, length };
    }
    const vr = this.bytes.toString('latin1', this.offset, this.offset + 2);
    if (longVrs.has(vr)) {
      const length = this.bytes.readUInt32LE(this.offset + 4);
      this.offset += 8;
      return { tag, vr, length };
    }
    const length = this.bytes.readUInt16LE(this.offset + 2);
    this.offset += 4;
    return { tag, vr, length };
  }

  /** Skips an undefined-length value (a sequence of items, or encapsulated fragments). */
  skipUndefined(): void {
    while (!this.done) {
      const { tag, length } = this.header();
      if (tag === sequenceEnd) return;
      if (tag === itemTag && length === undefinedLength) this.skipItem();
      else this.offset += length;
    }
    throw new Error('sequence without a sequence delimiter');
  }

  private skipItem(): void {
    while (!this.done) {
      const { tag, length } = this.header();
      if (tag === itemEnd) return;
      if (length === undefinedLength) this.skipUndefined();
      else this.offset += length;
    }
    throw new Error('item without an item delimiter');
  }

  text(length: number): string {
    if (this.offset + length > this.bytes.length) throw new Error('element value runs past the end of the file');
    const raw = this.bytes.toString('latin1', this.offset, this.offset + length);
    this.offset += length;
    const cut = raw.indexOf('\0');
    return (cut >= 0 ? raw.slice(0, cut) : raw).trim();
  }
}

/** Walks the file meta group; returns the transfer syntax UID and where the data set starts. */
function readMeta(bytes: Buffer): { transferSyntax: string; start: number } {
  if (bytes.length < 132 || bytes.toString('latin1', 128, 132) !== 'DICM') {
    throw new Error('dicom-parser failed to parse file: DICM prefix not found at location 132 - this is not a valid DICOM P10 file.');
  }
  const reader = new DicomReader(bytes, 132, true);
  let transferSyntax = '';
  while (!reader.done && bytes.readUInt16LE(reader.offset) === 0x0002) {
    const { tag, length } = reader.header();
    if (tag === 0x00020010) transferSyntax = reader.text(length);
    else reader.offset += length;
  }
  return { transferSyntax, start: reader.offset };
}

function readDicomStrings(bytes: Buffer): Record<string, string> {
  const { transferSyntax, start } = readMeta(bytes);
  if (transferSyntax === '1.2.840.10008.1.2.1.99' || transferSyntax === '1.2.840.10008.1.2.2') {
    throw new Error(`transfer syntax ${transferSyntax} (deflated or big endian) is not supported`);
  }
  const reader = new DicomReader(bytes, start, transferSyntax !== '1.2.840.10008.1.2');
  const found: Record<string, string> = {};
  while (!reader.done) {
    const { tag, length } = reader.header();
    if (tag > lastWanted) break;
    const name = wanted.get(tag);
    if (name) found[name] = reader.text(length);
    else if (length === undefinedLength) reader.skipUndefined();
    else reader.offset += length;
  }
  return found;
}

/** `extra` is the tool call's: with a task context the file is read from the task's workspace (task-paths.ts). */
export async function extractDicomMetadata(filePath: string, extra?: { _meta?: unknown }): Promise<Payload> {
  const file = resolveInputArgument(filePath, extra);
  const values = readDicomStrings(await readFile(file));
  return success({
    patientName: values.patientName,
    patientId: values.patientId,
    studyDescription: values.studyDescription,
    seriesDescription: values.seriesDescription,
  });
}
