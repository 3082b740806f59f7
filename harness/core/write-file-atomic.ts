// Every whole-file write of touchstone's (reports, baselines, sessions, tokens templates) goes
// through here: a reader sees the old file or the whole new one, never half.
//
// npm's write-file-atomic does the work (a swap for the hand-written temp-and-rename this was):
// it flushes the data to disk before the rename (so a power cut cannot leave an empty file in
// place of a report or baseline), gives each write a temp name of its own, keeps the mode and
// owner of the file it replaces, and removes its temp file when the write fails (a full disk
// left `<file>.<pid>.tmp` behind before). The cassette store keeps its own writer: it must
// journal each interaction as it arrives (harness/cassette/cassette-store.ts).
import writeFileAtomicModule from 'write-file-atomic';

export function writeFileAtomic(file: string, data: Uint8Array | string): void {
  writeFileAtomicModule.sync(file, typeof data === 'string' ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength));
}
