// Splits one generated file into CodeGeneratorResponse.File entries: the first carries the
// name, the rest have no name and continue it (spec 3, "Splitting a large file"). Cuts fall
// between code points, never inside one, because each chunk travels as its own proto string
// and must be valid UTF-8 by itself; a compiler concatenates the chunks' bytes.
import type { GeneratedFile } from './descriptor-types.js';

/** maxBytes 0 = one File; otherwise every content is at most maxBytes UTF-8 bytes (maxBytes ≥ 4). */
export function chunkFile(name: string, content: string, maxBytes: number): GeneratedFile[] {
  const pieces = maxBytes > 0 ? splitUtf8(content, maxBytes) : [content];
  return pieces.map((piece, index) => (index === 0 ? { name, content: piece } : { content: piece }));
}

function splitUtf8(content: string, maxBytes: number): string[] {
  const pieces: string[] = [];
  let start = 0;
  let bytes = 0;
  for (let index = 0; index < content.length; ) {
    const codePoint = content.codePointAt(index)!;
    const units = codePoint > 0xffff ? 2 : 1;
    const size = utf8Length(codePoint);
    if (bytes + size > maxBytes) {
      pieces.push(content.slice(start, index));
      start = index;
      bytes = 0;
    }
    bytes += size;
    index += units;
  }
  pieces.push(content.slice(start));
  return pieces;
}

// A lone surrogate is written as U+FFFD, three bytes, like any other BMP code point above U+07FF.
function utf8Length(codePoint: number): number {
  if (codePoint < 0x80) return 1;
  if (codePoint < 0x800) return 2;
  return codePoint < 0x10000 ? 3 : 4;
}
