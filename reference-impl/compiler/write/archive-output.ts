// An output location ending in .zip, .jar or .srcjar is written as one archive, byte for
// byte as protoc 3.21's ZipWriter writes it: entries stored uncompressed in byte-sorted
// name order, every timestamp 1980-01-01 00:00, no extra fields, then the central
// directory. A .jar gets protoc's META-INF/MANIFEST.MF unless a plugin wrote one; its
// "Created-By: 1.6.0 (protoc)" line is kept verbatim so archives compare equal to protoc's.
import { crc32 } from 'node:zlib';
import { sortedNames } from '../apply/output-location.js';

const DOS_EPOCH_DATE = (1 << 5) | 1;
const JAR_MANIFEST = 'META-INF/MANIFEST.MF';
const JAR_MANIFEST_CONTENT = 'Manifest-Version: 1.0\nCreated-By: 1.6.0 (protoc)\n\n';

class LittleEndian {
  readonly parts: Buffer[] = [];
  length = 0;
  private push(buffer: Buffer): this {
    this.parts.push(buffer);
    this.length += buffer.length;
    return this;
  }
  u16(value: number): this {
    const b = Buffer.alloc(2);
    b.writeUInt16LE(value & 0xffff);
    return this.push(b);
  }
  u32(value: number): this {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(value >>> 0);
    return this.push(b);
  }
  bytes(data: Uint8Array): this {
    return this.push(Buffer.from(data.buffer, data.byteOffset, data.length));
  }
}

export function buildArchive(location: string, staged: ReadonlyMap<string, Uint8Array>): Uint8Array {
  const files = new Map(staged);
  if (location.endsWith('.jar') && !files.has(JAR_MANIFEST)) files.set(JAR_MANIFEST, Buffer.from(JAR_MANIFEST_CONTENT));
  const out = new LittleEndian();
  const entries: { name: Buffer; crc: number; size: number; offset: number }[] = [];
  for (const name of sortedNames(files.keys())) {
    const data = files.get(name)!;
    const entry = { name: Buffer.from(name, 'utf8'), crc: crc32(data), size: data.length, offset: out.length };
    entries.push(entry);
    out.u32(0x04034b50).u16(10).u16(0).u16(0).u16(0).u16(DOS_EPOCH_DATE);
    out.u32(entry.crc).u32(entry.size).u32(entry.size).u16(entry.name.length).u16(0).bytes(entry.name).bytes(data);
  }
  const directoryOffset = out.length;
  for (const entry of entries) {
    out.u32(0x02014b50).u16(10).u16(10).u16(0).u16(0).u16(0).u16(DOS_EPOCH_DATE);
    out.u32(entry.crc).u32(entry.size).u32(entry.size).u16(entry.name.length).u16(0).u16(0).u16(0).u16(0).u32(0).u32(entry.offset);
    out.bytes(entry.name);
  }
  const directoryLength = out.length - directoryOffset;
  out.u32(0x06054b50).u16(0).u16(0).u16(entries.length).u16(entries.length).u32(directoryLength).u32(directoryOffset).u16(0);
  return Buffer.concat(out.parts);
}
