// decode→encode must give back ANY well-formed input, not only the ones protoc writes:
// fields in any order, repeated singular fields, padded varints and lengths, invalid UTF-8,
// unknown fields of every wire type (groups included), known fields with the wrong wire
// type. A seeded generator writes such inputs; every one must come back byte for byte.
import { expect, test } from '@playwright/test';
import { decodeRequest, decodeResponse, encodeRequest, encodeResponse } from './plugin-codec.js';
import { protocolSchema } from './protocol-schema.js';

function createGenerator(seed: number) {
  let state = seed >>> 0;
  const int = (below: number) => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return state % below;
  };
  const pick = <T>(items: readonly T[]): T => items[int(items.length)];
  const bytes = (max: number) => Array.from({ length: int(max + 1) }, () => int(256));
  const text = () => (int(4) === 0 ? bytes(8) : [...new TextEncoder().encode(pick(['a.txt', 'dir/b.ts', 'é', '', 'x=1,y', '\ufeffbom']))]);

  // A varint, sometimes padded with redundant continuation bytes up to `max` bytes (protoc
  // takes 10 for values, 5 for tags and lengths).
  const varint = (value: bigint, max = 10): number[] => {
    const out: number[] = [];
    let rest = BigInt.asUintN(64, value);
    do {
      out.push(Number(rest & 0x7fn));
      rest >>= 7n;
    } while (rest > 0n);
    for (let pad = int(3) === 0 ? int(max - out.length + 1) : 0; pad > 0; pad--) out.push(0);
    return out.map((byte, i) => (i < out.length - 1 ? byte | 0x80 : byte));
  };
  const tag = (field: number, wireType: number) => varint((BigInt(field) << 3n) | BigInt(wireType), 5);
  const len = (field: number, payload: number[]) => [...tag(field, 2), ...varint(BigInt(payload.length), 5), ...payload];
  const anyVarint = () => pick([0n, 1n, 300n, -1n, 2n ** 63n, BigInt(int(2 ** 30))]);

  const unknown = (known: ReadonlyMap<number, number>, depth = 0): number[] => {
    let field = pick([4, 5, 9, 14, 16, 17, 99, 1000, 536870911]);
    let wireType = pick([0, 1, 2, 5, ...(depth < 3 ? [3] : [])]);
    if (known.size > 0 && int(5) === 0) {
      // A known field with the wrong wire type.
      field = pick([...known.keys()]);
      wireType = pick([0, 1, 2, 5].filter((type) => type !== known.get(field)));
    }
    if (known.get(field) === wireType) wireType = wireType === 2 ? 5 : 2;
    switch (wireType) {
      case 0:
        return [...tag(field, 0), ...varint(anyVarint())];
      case 1:
        return [...tag(field, 1), ...Array.from({ length: 8 }, () => int(256))];
      case 5:
        return [...tag(field, 5), ...Array.from({ length: 4 }, () => int(256))];
      case 3: {
        const inner = Array.from({ length: int(3) }, () => unknown(new Map(), depth + 1)).flat();
        return [...tag(field, 3), ...inner, ...tag(field, 4)];
      }
      default:
        return len(field, bytes(6));
    }
  };

  const message = (pieces: (() => number[])[], known: ReadonlyMap<number, number>): number[] =>
    Array.from({ length: int(7) }, () => (int(4) === 0 ? unknown(known) : pick(pieces)())).flat();

  const { generatedCodeInfo, fileDescriptorProto } = protocolSchema();
  const codeInfo = [...generatedCodeInfo.encode({ annotation: [{ path: [4, 0], begin: 1, end: 2 }] }).finish()];
  const descriptor = () => [
    ...fileDescriptorProto.encode({ name: pick(['a.proto', 'b/c.proto']), dependency: ['d.proto'] }).finish(),
    ...(int(2) ? len(99, bytes(3)) : []),
  ];

  const FILE = new Map([
    [1, 2],
    [2, 2],
    [15, 2],
    [16, 2],
  ]);
  const file = () =>
    message(
      [() => len(1, text()), () => len(2, text()), () => len(15, int(2) ? bytes(12) : text()), () => len(16, int(2) ? codeInfo : [])],
      FILE,
    );
  const RESPONSE = new Map([
    [1, 2],
    [2, 0],
    [15, 2],
  ]);
  const response = () => message([() => len(1, text()), () => [...tag(2, 0), ...varint(anyVarint())], () => len(15, file())], RESPONSE);

  const VERSION = new Map([
    [1, 0],
    [2, 0],
    [3, 0],
    [4, 2],
  ]);
  const version = () => message([() => [...tag(pick([1, 2, 3]), 0), ...varint(anyVarint())], () => len(4, text())], VERSION);
  const REQUEST = new Map([
    [1, 2],
    [2, 2],
    [3, 2],
    [15, 2],
  ]);
  const request = () =>
    message([() => len(1, text()), () => len(2, text()), () => len(3, version()), () => len(15, descriptor())], REQUEST);

  return { response: () => Uint8Array.from(response()), request: () => Uint8Array.from(request()) };
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

test('generated responses of every shape round-trip byte for byte', () => {
  const generate = createGenerator(1);
  for (let i = 0; i < 1500; i++) {
    const bytes = generate.response();
    expect(hex(encodeResponse(decodeResponse(bytes))), `case ${i}: ${hex(bytes)}`).toBe(hex(bytes));
  }
});

test('generated requests of every shape round-trip byte for byte', () => {
  const generate = createGenerator(2);
  for (let i = 0; i < 1500; i++) {
    const bytes = generate.request();
    expect(hex(encodeRequest(decodeRequest(bytes))), `case ${i}: ${hex(bytes)}`).toBe(hex(bytes));
  }
});
