// The crash-safe cassette writer. While recording, each finished interaction is one
// line appended to `<file>.journal` (one write call, so kill -9 tears at most the last
// line, which was never acknowledged). Closing compacts the journal into the cassette
// through `<file>.tmp-<pid>`, fsync and rename, so the final path only ever holds the
// previous cassette or a complete new one. `<file>.lock` (O_EXCL, holding the pid)
// keeps two writers apart; a lock whose process is gone is taken over after recovery.
//
// Decisions where the brief is silent:
// - The journal header also carries `base`, the sha256 of the cassette the journal was
//   started against. Recovery compacts only when the cassette is still that one: a
//   crash after the rename but before the journal was deleted must not append twice.
// - record-missing keeps the existing interactions first and appends the journal's
//   (sorted by seq, stable), whatever seqs the recorder gave them; then renumbers 1..n.
// - A session (closed or recovered, either mode) with no interactions leaves an existing
//   cassette alone, byte for byte: nothing was recorded, so there is nothing to replace it
//   with or add to it; a recorder started and stopped by mistake wipes nothing.
// - A journal may also hold misses (`{"miss": {...}}` lines: a request a recording session
//   answered from the cassette's absence, record mode once): `touchstone cassette show` lists
//   them while the recording is under way. They are not recordings: compaction skips them.
// - A recovered cassette is marked `incomplete` (or, for a recorder that said so, the journal is
//   discarded): the journal holds what was answered before the crash, never what the session
//   would have gone on to ask, so it is never replayed as if it were whole.
// - Recovery cannot know the redaction notes the recorder would have passed to close():
//   a recovered cassette keeps only the notes of the cassette it extends.
// - An explicit `now` wins over SOURCE_DATE_EPOCH, which wins over the clock.
// - The lock is linked into place already holding its pid, so it is never empty; a lock
//   whose pid is not a live process is stale and taken over.
// - recoverCassette() returns undefined when there was nothing to write, including when
//   a live process holds the lock (that process will compact its own journal).
// - The lock is hand-written, not proper-lockfile: that library judges a lock stale by its age
//   (an mtime a timer must refresh every few seconds, or another process takes the lock over),
//   so a recorder paused in a debugger, or a machine loaded enough to miss the refresh, would
//   have its cassette taken while it still writes. Here a lock is stale only when its pid is no
//   live process, which is exact on one machine (cassettes on a network share are not
//   supported), needs no timer keeping the proxy alive, and is tied to the journal's recovery.
//   The compacting write stays its own too (not write-file-atomic, which the reports use): it
//   also flushes the folder after the rename, so the rename itself survives a power cut, and
//   its temp file is `<file>.tmp-<pid>`, a name recovery can find and remove after a kill -9
//   (removeStaleTemps); write-file-atomic's temp names are a hash, and its cleanup runs only on
//   an orderly exit.
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  linkSync,
  fsyncSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { HarnessError } from '../core/errors.js';
import { CASSETTE_VERSION, isDigestOnly, sidecarFolder, type Cassette, type Interaction } from './cassette-format.js';
import { loadCassetteFile, parseCassette } from './cassette-load.js';
import { serializeCassette } from './cassette-serialize.js';
import { makeDirectory } from '../../lib/make-directory.js';

export type WriteMode = 'record' | 'record-missing';

/**
 * What recovery makes of a journal its recorder never closed: `incomplete`, a cassette marked so
 * (replay refuses it, record mode once records it again); `discard`, nothing (the cassette
 * before stays). A recorder that closes each cassette only once its session is known to be
 * whole (`touchstone run --record`: a case that reached an outcome) discards.
 */
export type CrashedJournal = 'incomplete' | 'discard';

export interface CassetteWriterOptions {
  mode: WriteMode;
  name: string;
  /** Default `incomplete`. */
  crashed?: CrashedJournal;
  now?: () => Date;
}

/** A request a recording session did not forward and had no answer for, as its journal keeps it (redacted). */
export interface JournalMiss {
  method: string;
  url: string;
  reason: string;
}

export interface CassetteWriter {
  /** Journals one finished interaction; once this returns, a crash cannot lose it. */
  append(interaction: Interaction): void;
  /** Journals a miss, for `cassette show` while recording. */
  appendMiss(miss: JournalMiss): void;
  /** The interactions already in the cassette (record-missing), or none (record). */
  existing(): Interaction[];
  /** Compacts the journal into the cassette and releases the lock. */
  close(extra?: { redactions?: string[] }): Cassette;
  /** Releases the lock and drops the journal; the cassette on disk stays as it was. */
  abandon(): void;
}

const JOURNAL_VERSION = 1;

export interface JournalHeader {
  journal: number;
  mode: WriteMode;
  name: string;
  base: string | null;
  /** Absent in journals of earlier versions: `incomplete`. */
  crashed?: CrashedJournal;
}

const paths = (file: string) => ({ lock: `${file}.lock`, journal: `${file}.journal`, tmp: `${file}.tmp-${process.pid}` });

export function openCassetteWriter(file: string, options: CassetteWriterOptions): CassetteWriter {
  const now = clock(options.now);
  const { journal } = paths(file);
  makeDirectory(path.dirname(file));
  const holder = takeLock(file);
  if (holder !== undefined) throw lockedError(file, holder);
  let fd: number;
  let existing: Interaction[];
  try {
    recoverLocked(file, now);
    existing = options.mode === 'record-missing' && existsSync(file) ? loadCassetteFile(file).interactions : [];
    const header: JournalHeader = {
      journal: JOURNAL_VERSION,
      mode: options.mode,
      name: options.name,
      base: fileSha256(file),
      ...(options.crashed === 'discard' && { crashed: 'discard' }),
    };
    fd = openSync(journal, 'w');
    writeFileSync(fd, `${JSON.stringify(header)}\n`);
  } catch (error) {
    releaseLock(file);
    throw error;
  }
  let open = true;
  const finish = (): void => {
    if (!open) throw new HarnessError('USAGE', `${file}: the cassette writer is already closed`);
    open = false;
    closeSync(fd);
  };
  return {
    append(interaction) {
      if (!open) throw new HarnessError('USAGE', `${file}: append after the cassette writer was closed`);
      writeFileSync(fd, `${JSON.stringify(interaction)}\n`);
    },
    appendMiss(miss) {
      if (!open) throw new HarnessError('USAGE', `${file}: append after the cassette writer was closed`);
      writeFileSync(fd, `${JSON.stringify({ miss })}\n`);
    },
    existing: () => existing,
    close(extra) {
      finish();
      try {
        const { header, interactions } = readJournal(journal);
        const keep = interactions.length === 0 && existsSync(file);
        const cassette = keep
          ? loadCassetteFile(file)
          : compactJournal(file, header ?? { mode: options.mode, name: options.name }, interactions, extra?.redactions ?? [], now);
        unlinkSync(journal);
        return cassette;
      } finally {
        releaseLock(file);
      }
    },
    abandon() {
      finish();
      rmSync(journal, { force: true });
      releaseLock(file);
    },
  };
}

/** Turns a crashed recording's journal into the cassette, unless a live process still owns it. */
export function recoverCassette(file: string): Cassette | undefined {
  // A writer killed before its journal existed leaves only its lock, or, killed while taking
  // it, only the draft of its lock: both are cleared too.
  if (!existsSync(paths(file).journal) && !existsSync(paths(file).lock)) {
    removeDeadLockDrafts(file);
    return undefined;
  }
  if (takeLock(file) !== undefined) return undefined;
  try {
    return recoverLocked(file, clock());
  } finally {
    releaseLock(file);
  }
}

function recoverLocked(file: string, now: () => Date): Cassette | undefined {
  removeStaleTemps(file);
  const { journal } = paths(file);
  if (!existsSync(journal)) return undefined;
  const { header, interactions } = readJournal(journal);
  const applies = header !== undefined && header.crashed !== 'discard' && header.base === fileSha256(file) && interactions.length > 0;
  const cassette = applies ? compactJournal(file, header, interactions, [], now, true) : undefined;
  unlinkSync(journal);
  return cassette;
}

/** What was journaled makes a cassette the loader refuses: no later run could compact it either. */
class RefusedJournal extends Error {}

/**
 * compact(), and when the journal's interactions can never make a valid cassette, the journal
 * set aside as `<journal>.refused` (named in the error): left where it was, it would be
 * recovered, and refused, at every later open of the same cassette, blocking it for good.
 */
function compactJournal(...args: Parameters<typeof compact>): Cassette {
  try {
    return compact(...args);
  } catch (error) {
    if (!(error instanceof RefusedJournal)) throw error;
    const { journal } = paths(args[0]);
    const refused = `${journal}.refused`;
    renameSync(journal, refused);
    throw new HarnessError('CONFIG', `${error.message} (what was recorded is kept in ${refused})`);
  }
}

function compact(
  file: string,
  how: Pick<JournalHeader, 'mode' | 'name'>,
  appended: Interaction[],
  redactions: string[],
  now: () => Date,
  /** Recovered from a crash: the session may have gone on to requests the journal lacks. */
  incomplete = false,
): Cassette {
  const previous = readPrevious(file, how.mode);
  const kept = how.mode === 'record-missing' ? (previous?.interactions ?? []) : [];
  const ordered = [...appended].sort((a, b) => a.seq - b.seq);
  const cassette: Cassette = {
    cassetteVersion: CASSETTE_VERSION,
    name: how.name,
    recordedAt: previous?.recordedAt ?? '',
    ...(incomplete && { incomplete: true as const }),
    redactions: [...new Set([...(how.mode === 'record-missing' ? (previous?.redactions ?? []) : []), ...redactions])].sort(),
    interactions: [...kept, ...ordered].map((interaction, index) => ({ ...interaction, seq: index + 1 })),
  };
  let text = serializeCassette(cassette);
  // Same traffic, same bytes: the timestamp moves only when the content did.
  if (!previous || text !== serializeCassette(previous)) {
    cassette.recordedAt = now().toISOString();
    text = serializeCassette(cassette);
  }
  try {
    parseCassette(text, file); // never put a cassette on disk that the loader would refuse
  } catch (error) {
    throw new RefusedJournal((error as Error).message);
  }
  writeAtomically(file, text);
  pruneSidecars(file, cassette);
  return cassette;
}

/** Sidecars the cassette no longer references (an older recording's, a dead writer's temp files) go. */
function pruneSidecars(file: string, cassette: Cassette): void {
  const folder = path.join(path.dirname(file), sidecarFolder(file).prefix);
  if (!existsSync(folder)) return;
  const referenced = new Set<string>();
  for (const { request, response } of cassette.interactions) {
    for (const body of [request.body, response.body]) {
      if (!body || isDigestOnly(body)) continue;
      if ('file' in body) referenced.add(path.resolve(path.dirname(file), body.file));
      if (body.encoded && 'file' in body.encoded) referenced.add(path.resolve(path.dirname(file), body.encoded.file));
    }
  }
  for (const entry of readdirSync(folder)) {
    const full = path.join(folder, entry);
    if (!referenced.has(full)) rmSync(full, { force: true });
  }
  if (readdirSync(folder).length === 0) rmSync(folder, { recursive: true, force: true });
}

/** record-missing extends the cassette, so it must be valid; record only compares against it. */
function readPrevious(file: string, mode: WriteMode): Cassette | undefined {
  if (!existsSync(file)) return undefined;
  if (mode === 'record-missing') return loadCassetteFile(file);
  try {
    return loadCassetteFile(file);
  } catch {
    return undefined;
  }
}

function writeAtomically(file: string, text: string): void {
  const { tmp } = paths(file);
  const fd = openSync(tmp, 'w');
  try {
    writeFileSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  // The rename itself must survive a power cut; directories cannot be opened on Windows.
  try {
    const dir = openSync(path.dirname(file), 'r');
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
  } catch {
    // Best effort where the platform has no directory fsync.
  }
}

/** What a journal holds: its header, the interactions and the misses journaled so far. */
export interface JournalContents {
  header: JournalHeader | undefined;
  interactions: Interaction[];
  misses: JournalMiss[];
}

/**
 * The journal beside `file`, read without the lock (a recorder appends whole lines, so a
 * reader sees every interaction answered so far), and the pid of the live process recording
 * it (undefined when the recording did not finish: the next start recovers it). Undefined
 * when there is no journal.
 */
export function inspectJournal(file: string): (JournalContents & { journal: string; holder?: number }) | undefined {
  const { journal, lock } = paths(file);
  if (!existsSync(journal)) return undefined;
  const holder = lockHolder(lock);
  return { journal, ...readJournal(journal), ...(holder !== undefined && { holder }) };
}

/** Complete lines only: a last line without its newline was never acknowledged. */
function readJournal(journal: string): JournalContents {
  const lines = readFileSync(journal, 'utf8').split('\n');
  lines.pop();
  if (lines.length === 0) return { header: undefined, interactions: [], misses: [] };
  const parsed = lines.map((line, index) => {
    try {
      return JSON.parse(line) as unknown;
    } catch {
      throw new HarnessError('CONFIG', `${journal}:${index + 1}: not a journal line (the file is damaged; move it away to record afresh)`);
    }
  });
  const header = parsed[0] as Partial<JournalHeader> | null;
  if (
    header?.journal !== JOURNAL_VERSION ||
    (header.mode !== 'record' && header.mode !== 'record-missing') ||
    typeof header.name !== 'string' ||
    (header.crashed !== undefined && header.crashed !== 'incomplete' && header.crashed !== 'discard')
  ) {
    throw new HarnessError('CONFIG', `${journal}: not a version ${JOURNAL_VERSION} cassette journal (written by another touchstone?)`);
  }
  const misses: JournalMiss[] = [];
  const interactions: Interaction[] = [];
  for (const line of parsed.slice(1) as (Interaction | { miss: JournalMiss })[]) {
    if ('miss' in line) misses.push(line.miss);
    else interactions.push(line);
  }
  return { header: header as JournalHeader, interactions, misses };
}

/** Undefined when the lock is now ours, else the pid of the live process holding it. */
function takeLock(file: string): number | undefined {
  const { lock } = paths(file);
  for (let attempt = 0; attempt < 5; attempt++) {
    // The pid is written to a private file first and linked into place: link fails if the
    // lock exists, and a lock that exists always names its holder (no empty lock after a kill).
    const draft = `${lock}.${process.pid}`;
    writeFileSync(draft, String(process.pid));
    try {
      linkSync(draft, lock);
      return undefined;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      rmSync(draft, { force: true });
    }
    const holder = lockHolder(lock);
    if (holder !== undefined) return holder;
    rmSync(lock, { force: true }); // its process is gone (kill -9): recovery runs once we hold it
  }
  throw new HarnessError('CONFIG', `${file}: cannot take ${lock}; other processes keep racing for it`);
}

/** The live holder's pid, or undefined when the lock is stale (or already gone). */
function lockHolder(lock: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(lock, 'utf8').trim();
  } catch {
    return undefined;
  }
  // A lock is linked into place with its pid already in it, so anything else is debris.
  const pid = /^\d+$/.test(text) ? Number(text) : undefined;
  return pid !== undefined && isAlive(pid) ? pid : undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function lockedError(file: string, holder: number): HarnessError {
  const who = holder === 0 ? 'another process (its lock is being created)' : `process ${holder}`;
  return new HarnessError(
    'CONFIG',
    `${file} is being recorded by ${who}; wait for it to finish, or delete ${paths(file).lock} if that process is not touchstone`,
  );
}

function releaseLock(file: string): void {
  const { lock } = paths(file);
  // Only our own lock: never remove one a recovering process took over.
  if (existsSync(lock) && readFileSync(lock, 'utf8').trim() === String(process.pid)) rmSync(lock, { force: true });
}

/** Temp files of writers that died mid-compaction; only called while holding the lock. */
function removeStaleTemps(file: string): void {
  removeDeadLockDrafts(file);
  const prefix = `${path.basename(file)}.tmp-`;
  for (const entry of siblings(file)) if (entry.startsWith(prefix)) rmSync(path.join(path.dirname(file), entry), { force: true });
}

/** Lock drafts (see takeLock) of processes that are gone; a live one may be linking its draft. */
function removeDeadLockDrafts(file: string): void {
  const draft = `${path.basename(file)}.lock.`;
  for (const entry of siblings(file)) {
    if (entry.startsWith(draft) && !isAlive(Number(entry.slice(draft.length))))
      rmSync(path.join(path.dirname(file), entry), { force: true });
  }
}

function siblings(file: string): string[] {
  return existsSync(path.dirname(file)) ? readdirSync(path.dirname(file)) : [];
}

function fileSha256(file: string): string | null {
  return existsSync(file) ? createHash('sha256').update(readFileSync(file)).digest('hex') : null;
}

function clock(now?: () => Date): () => Date {
  if (now) return now;
  const epoch = process.env.SOURCE_DATE_EPOCH;
  if (epoch === undefined || epoch === '') return () => new Date();
  const date = new Date(Number(epoch) * 1000);
  // A cassette's recordedAt is an ISO date of four-digit years (and an invalid Date has none).
  if (!/^\d+$/.test(epoch) || !(date.getUTCFullYear() <= 9999))
    throw new HarnessError('USAGE', `SOURCE_DATE_EPOCH "${epoch}" must be whole seconds since 1970-01-01, up to the end of 9999`);
  return () => new Date(date);
}
