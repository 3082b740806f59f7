// Write to a temp name beside the file, then rename: a reader sees the old file or the
// whole new one, never half. Not durable across a power cut (no fsync); the cassette
// store, which must be, has its own fsyncing writer.
import { renameSync, writeFileSync } from 'node:fs';

export function writeFileAtomic(file: string, data: Uint8Array | string): void {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, data);
  renameSync(temp, file);
}
