// Test support for the streaming scrubbers: a body written in pieces of chosen sizes.
import type { Scrubber } from './json-field-scrubber.js';

/** What `make`'s scrubber emits for `text` written in pieces of the given sizes (cycled), then flushed. */
export function scrubInPieces(make: (emit: (bytes: Buffer) => void) => Scrubber, text: string, sizes: number[]): string {
  const out: Buffer[] = [];
  const scrubber = make((bytes) => out.push(Buffer.from(bytes)));
  const bytes = Buffer.from(text);
  for (let at = 0, k = 0; at < bytes.length; k++) {
    const size = sizes[k % sizes.length];
    scrubber.write(bytes.subarray(at, at + size));
    at += size;
  }
  scrubber.flush();
  return Buffer.concat(out).toString('utf8');
}
