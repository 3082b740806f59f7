// The bytes of a generated file of the world (`generated: {size, seed}`): the lines
// `<seed>:0`, `<seed>:1`, `<seed>:2`, … each ending with a line feed, cut at `size` bytes.
// Text a third-party target can make from the world's declaration in one line of any
// language, where every offset is different from its neighbours (so a truncated, shifted
// or repeated range changes the SHA), and which compresses, so the 100 MB files of the
// size boundaries cost little to store and a recording of them little to keep.
//
// Written byte by byte with the line number counted in decimal digits: formatting a string
// per line took 1.5 s per 100 MiB, and the world's Git objects are built while requests
// wait for them (areas/contents/git-state.ts).
const ZERO = 0x30;
const NINE = 0x39;
const LINE_FEED = 0x0a;

export function generatedBytes(size: number, seed: number): Buffer {
  const bytes = Buffer.allocUnsafe(size);
  const prefix = Buffer.from(`${seed}:`, 'latin1');
  // The line number's digits, most significant first, at the end of a buffer with room to grow.
  const digits = Buffer.alloc(16, ZERO);
  let first = digits.length - 1;
  let offset = 0;
  // Whole lines while they fit, then the cut one.
  while (offset + prefix.length + digits.length - first + 1 <= size) {
    for (let i = 0; i < prefix.length; i++) bytes[offset++] = prefix[i];
    for (let i = first; i < digits.length; i++) bytes[offset++] = digits[i];
    bytes[offset++] = LINE_FEED;
    let i = digits.length - 1;
    while (digits[i] === NINE) digits[i--] = ZERO;
    digits[i] += 1;
    if (i < first) first = i;
  }
  const last = Buffer.concat([prefix, digits.subarray(first), Buffer.from([LINE_FEED])]);
  last.copy(bytes, offset, 0, size - offset);
  return bytes;
}
