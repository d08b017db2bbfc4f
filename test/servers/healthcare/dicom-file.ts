// Builds a small DICOM Part 10 file for the extract_dicom_metadata test: preamble, "DICM", the
// file meta group (explicit VR little endian), then a data set in explicit or implicit VR little
// endian with an OB element and an undefined-length sequence before the four wanted strings
// (the sequence holds an undefined-length item, as scanners write them).

function tagBytes(group: number, element: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt16LE(group, 0);
  bytes.writeUInt16LE(element, 2);
  return bytes;
}

function padded(value: string): Buffer {
  return Buffer.from(value.length % 2 === 0 ? value : `${value} `, 'latin1');
}

function element(group: number, element_: number, vr: string, value: Buffer, explicit: boolean): Buffer {
  if (!explicit) {
    const length = Buffer.alloc(4);
    length.writeUInt32LE(value.length, 0);
    return Buffer.concat([tagBytes(group, element_), length, value]);
  }
  if (['OB', 'OW', 'SQ', 'UN', 'UT'].includes(vr)) {
    const header = Buffer.alloc(8);
    header.write(vr, 0, 'latin1');
    header.writeUInt32LE(value.length, 4);
    return Buffer.concat([tagBytes(group, element_), header, value]);
  }
  const header = Buffer.alloc(4);
  header.write(vr, 0, 'latin1');
  header.writeUInt16LE(value.length, 2);
  return Buffer.concat([tagBytes(group, element_), header, value]);
}

function undefinedSequence(group: number, element_: number, items: Buffer, explicit: boolean): Buffer {
  const header = explicit ? Buffer.concat([Buffer.from('SQ\0\0', 'latin1'), Buffer.from([0xff, 0xff, 0xff, 0xff])]) : Buffer.from([0xff, 0xff, 0xff, 0xff]);
  const item = Buffer.concat([tagBytes(0xfffe, 0xe000), Buffer.from([0xff, 0xff, 0xff, 0xff]), items, tagBytes(0xfffe, 0xe00d), Buffer.alloc(4)]);
  return Buffer.concat([tagBytes(group, element_), header, item, tagBytes(0xfffe, 0xe0dd), Buffer.alloc(4)]);
}

export function buildDicom(fields: { patientName: string; patientId: string; studyDescription: string; seriesDescription: string }, explicit: boolean): Buffer {
  const syntax = explicit ? '1.2.840.10008.1.2.1' : '1.2.840.10008.1.2';
  const meta = Buffer.concat([
    element(0x0002, 0x0001, 'OB', Buffer.from([0, 1]), true),
    element(0x0002, 0x0010, 'UI', Buffer.from(syntax.length % 2 ? `${syntax}\0` : syntax, 'latin1'), true),
  ]);
  const groupLength = element(0x0002, 0x0000, 'UL', Buffer.from(new Uint32Array([meta.length]).buffer), true);
  const data = Buffer.concat([
    element(0x0008, 0x0060, 'CS', padded('CT'), explicit),
    element(0x0008, 0x1030, 'LO', padded(fields.studyDescription), explicit),
    element(0x0008, 0x103e, 'LO', padded(fields.seriesDescription), explicit),
    undefinedSequence(0x0008, 0x1110, element(0x0008, 0x1150, 'UI', padded('1.2.3.4'), explicit), explicit),
    element(0x0009, 0x0010, 'OB', Buffer.from([1, 2, 3, 4]), explicit),
    element(0x0010, 0x0010, 'PN', padded(fields.patientName), explicit),
    element(0x0010, 0x0020, 'LO', padded(fields.patientId), explicit),
    element(0x0010, 0x0030, 'DA', padded('19700101'), explicit),
  ]);
  return Buffer.concat([Buffer.alloc(128), Buffer.from('DICM', 'latin1'), groupLength, meta, data]);
}
