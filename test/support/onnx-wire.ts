// ONNX protobuf pieces written byte by byte (wire format, no library), for tiny test models.
// Used by the tiny sentence-transformers, pose and open-vocabulary models; value_info dimensions may be numbers
// (dim_value) or names (dim_param).
function varint(value: number): number[] {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return bytes;
}
const key = (field: number, wire: number) => varint(field * 8 + wire);
export const int = (field: number, value: number) => [...key(field, 0), ...varint(value)];
export const bytesField = (field: number, payload: number[] | Uint8Array) => [...key(field, 2), ...varint(payload.length), ...payload];
export const text = (field: number, value: string) => bytesField(field, [...Buffer.from(value, 'utf8')]);

export const FLOAT = 1;
export const INT64 = 7;

export function tensor(name: string, dims: number[], type: number, values: number[]): number[] {
  const raw = type === FLOAT ? Buffer.from(Float32Array.from(values).buffer) : Buffer.from(BigInt64Array.from(values.map(BigInt)).buffer);
  return [...dims.flatMap((dim) => int(1, dim)), ...int(2, type), ...text(8, name), ...bytesField(9, raw)];
}

export function valueInfo(name: string, type: number, dims: Array<string | number>): number[] {
  const shape = dims.flatMap((dim) => bytesField(1, typeof dim === 'number' ? int(1, dim) : text(2, dim)));
  const tensorType = [...int(1, type), ...bytesField(2, shape)];
  return [...text(1, name), ...bytesField(2, bytesField(1, tensorType))];
}

export function node(op: string, inputs: string[], outputs: string[], attributes: number[][] = []): number[] {
  return [
    ...inputs.flatMap((input) => text(1, input)),
    ...outputs.flatMap((output) => text(2, output)),
    ...text(3, `${op}_${outputs[0]}`),
    ...text(4, op),
    ...attributes.flatMap((attribute) => bytesField(5, attribute)),
  ];
}
