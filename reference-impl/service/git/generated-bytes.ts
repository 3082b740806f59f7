// The bytes of a generated file of the world (`generated: {size, seed}`): the lines
// `<seed>:0`, `<seed>:1`, `<seed>:2`, … each ending with a line feed, cut at `size` bytes.
// Text a third-party target can make from the world's declaration in one line of any
// language, where every offset is different from its neighbours (so a truncated, shifted
// or repeated range changes the SHA), and which compresses, so the 100 MB files of the
// size boundaries cost little to store and a recording of them little to keep.
//
// Made a thousand lines at a time: the lines of numbers k000 to k999 differ from those of the
// thousand before only in the digits of k, so each block is the block before, copied natively,
// with the digits of k that changed written into its lines (one byte a line, but at a carry).
// Measured on 100 MiB: a line at a time took 450 ms, a string per line 1.5 s; the world's Git
// objects are built at every start of a reference that serves them (world-git.ts).
const BLOCK = 1000;

export function generatedBytes(size: number, seed: number): Buffer {
  const prefix = `${seed}:`;
  // Room for the last block to run past the size; the caller gets the size asked for.
  const bytes = Buffer.allocUnsafe(size + BLOCK * (prefix.length + 17));
  let offset = 0;
  // The first thousand lines, whose numbers have one to three digits, one by one.
  for (let n = 0; n < BLOCK && offset < size; n++) offset += bytes.write(`${prefix}${n}\n`, offset, 'latin1');
  let upper = '';
  let blockStart = 0;
  for (let k = 1; offset < size; k++) {
    const digits = String(k);
    const lineLength = prefix.length + digits.length + 4;
    if (digits.length !== upper.length) {
      // The numbers grew a digit: this block is written whole, as text.
      let text = '';
      for (let low = 0; low < BLOCK; low++) text += `${prefix}${digits}${String(low).padStart(3, '0')}\n`;
      blockStart = offset;
      offset += bytes.write(text, offset, 'latin1');
    } else {
      const previous = blockStart;
      blockStart = offset;
      bytes.copy(bytes, offset, previous, previous + BLOCK * lineLength);
      for (let d = 0; d < digits.length; d++) {
        if (digits.charCodeAt(d) === upper.charCodeAt(d)) continue;
        const code = digits.charCodeAt(d);
        for (let at = offset + prefix.length + d, line = 0; line < BLOCK; line++, at += lineLength) bytes[at] = code;
      }
      offset += BLOCK * lineLength;
    }
    upper = digits;
  }
  return bytes.subarray(0, size);
}
