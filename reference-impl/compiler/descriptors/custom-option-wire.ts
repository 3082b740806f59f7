// The wire format of custom option values, written with 64-bit integers as bigints so that
// values beyond 2^53 come out exactly as protoc writes them (protobufjs's writer takes numbers).

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_LENGTH_DELIMITED = 2;
export const WIRE_START_GROUP = 3;
export const WIRE_END_GROUP = 4;
export const WIRE_FIXED32 = 5;

const MASK_64 = (1n << 64n) - 1n;

export function varint(value: bigint): number[] {
  let v = value & MASK_64;
  const out: number[] = [];
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return out;
}

export const tag = (fieldNumber: number, wireType: number): number[] => varint(BigInt(fieldNumber) * 8n + BigInt(wireType));

/** sint32 and sint64: 0, -1, 1, -2 … as 0, 1, 2, 3 … */
export const zigzag = (value: bigint): bigint => (value >= 0n ? value * 2n : -value * 2n - 1n);

export function fixed32(value: bigint): number[] {
  const v = Number(value & 0xffffffffn);
  return [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff];
}

export function fixed64(value: bigint): number[] {
  const v = value & MASK_64;
  return [...fixed32(v), ...fixed32(v >> 32n)];
}

export function float32(value: number): number[] {
  const view = new DataView(new ArrayBuffer(4));
  view.setFloat32(0, value, true);
  return [...new Uint8Array(view.buffer)];
}

export function float64(value: number): number[] {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value, true);
  return [...new Uint8Array(view.buffer)];
}

export const lengthDelimited = (bytes: ArrayLike<number>): number[] => [...varint(BigInt(bytes.length)), ...Array.from(bytes)];
