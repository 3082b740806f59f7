// The bytes of a generated file of the world (`generated: {size, seed}`): pseudo-random,
// the same for a seed on every machine, and fast enough to make 100 MB at start-up. They
// are AES-128-CTR's keystream for a key derived from the seed: a standard cipher as a
// deterministic generator, not for secrecy.
import { createCipheriv, createHash } from 'node:crypto';

export function generatedBytes(size: number, seed: number): Buffer {
  const key = createHash('sha256').update(`touchstone generated file ${seed}`).digest().subarray(0, 16);
  const cipher = createCipheriv('aes-128-ctr', key, Buffer.alloc(16));
  return Buffer.concat([cipher.update(Buffer.alloc(size)), cipher.final()]);
}
