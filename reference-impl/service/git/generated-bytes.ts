// The bytes of a generated file of the world (`generated: {size, seed}`): the lines
// `<seed>:0`, `<seed>:1`, `<seed>:2`, … each ending with a line feed, cut at `size` bytes.
// Text a third-party target can make from the world's declaration in one line of any
// language, where every offset is different from its neighbours (so a truncated, shifted
// or repeated range changes the SHA), and which compresses, so the 100 MB files of the
// size boundaries cost little to store and a recording of them little to keep.
export function generatedBytes(size: number, seed: number): Buffer {
  const bytes = Buffer.allocUnsafe(size);
  let offset = 0;
  let line = 0;
  // Thousands of lines per write: one write per line costs twice the time over 100 MB.
  while (offset < size) {
    let text = '';
    for (const end = line + 4096; line < end; line += 1) text += `${seed}:${line}\n`;
    offset += bytes.write(text, offset, 'latin1');
  }
  return bytes;
}
