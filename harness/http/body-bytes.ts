// Checks of a response body as bytes rather than JSON: size, SHA-256, Git blob SHA, text,
// and the entries of a zip or tar.gz archive. What downloads, raw file contents and
// archives are judged by.
//
// Decisions where the brief is silent:
// - A SHA-256 may be written as bare hex or as `sha256:<hex>` (the form of an artifact's
//   `digest`), so a digest captured from one response checks the bytes of another.
// - Archive entry paths are compared as stored, except that a directory's trailing `/`
//   is dropped (zip writes one, tar need not): `type` says what the entry is.
// - Zip entries are files or directories (fflate does not read Unix modes, and the spec's
//   zips carry plain files); tar entries are also symlinks (with `target`) and hard links.
//   Tar's pax and GNU long-name records are not entries: tar-stream folds them into the
//   entries they describe.
// - An archive is opened with a bound on what it expands to (256 MiB), so a target
//   answering with a compression bomb fails the check instead of exhausting the run.
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { unzipSync } from 'fflate';
import { extract } from 'tar-stream';
import { ConformanceFailure } from '../core/errors.js';
import type { ArchiveEntryExpectation, BytesExpectation } from '../core/suite-format.js';
import { someOf } from '../core/plural.js';

const MAX_EXPANDED_BYTES = 256 * 1024 * 1024;

export interface ArchiveEntry {
  path: string;
  type: 'file' | 'directory' | 'symlink' | 'link';
  size: number;
  /** Symlink and hard-link targets. */
  target?: string;
  bytes: Buffer;
}

export const sha256Hex = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Git's object id of a blob with these bytes: SHA-1 of `blob <size>\0` and the bytes. */
export const gitBlobSha = (bytes: Buffer) => createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');

/** Values a step can capture from the bytes (`bytes.size`, `bytes.sha256`, `bytes.git_blob_sha`). */
export function byteFacts(body: Buffer): Record<string, string | number> {
  return { size: body.length, sha256: sha256Hex(body), git_blob_sha: gitBlobSha(body) };
}

const hexOf = (digest: string) => digest.replace(/^sha256:/, '').toLowerCase();

/** Sizes may arrive as strings from `${capture}` interpolation. */
const sizeOf = (value: number | string) => (typeof value === 'number' ? value : Number(value));

type Fail = (expected: string, actual: string) => never;

/** The checks shared by a whole body and an archive entry; `label` names which in messages. */
function checkContent(bytes: Buffer, expect: Omit<ArchiveEntryExpectation, 'path' | 'type' | 'target'>, label: string, fail: Fail) {
  if (expect.size !== undefined && bytes.length !== sizeOf(expect.size))
    fail(`${label} of ${expect.size} bytes`, `${label} of ${bytes.length} bytes`);
  if (expect.sha256 !== undefined && sha256Hex(bytes) !== hexOf(expect.sha256))
    fail(`${label} with SHA-256 ${hexOf(expect.sha256)}`, `${label} with SHA-256 ${sha256Hex(bytes)}`);
  if (expect.git_blob_sha !== undefined && gitBlobSha(bytes) !== expect.git_blob_sha.toLowerCase())
    fail(`${label} with Git blob SHA ${expect.git_blob_sha}`, `${label} with Git blob SHA ${gitBlobSha(bytes)}`);
}

export async function checkBytes(body: Buffer, expect: BytesExpectation, requirement: string): Promise<void> {
  const fail: Fail = (expected, actual) => {
    throw new ConformanceFailure(requirement, expected, actual);
  };
  checkContent(body, expect, 'a body', fail);
  if (expect.text !== undefined || expect.matches !== undefined || expect.excludes !== undefined) {
    const text = body.toString('utf8');
    const shown = `a body reading ${JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text)}`;
    if (expect.text !== undefined && text !== expect.text) fail(`a body reading ${JSON.stringify(expect.text)}`, shown);
    if (expect.matches !== undefined && !new RegExp(expect.matches).test(text)) fail(`a body matching /${expect.matches}/`, shown);
    // The text found is not repeated: it is what must not be seen.
    const found = expect.excludes?.findIndex((secret) => text.includes(secret)) ?? -1;
    if (found >= 0) fail(`a body without excluded text ${found + 1}`, `a body holding excluded text ${found + 1}`);
  }
  const archive = expect.archive;
  if (!archive) return;
  let entries: ArchiveEntry[];
  try {
    entries = archive.format === 'zip' ? readZip(body) : await readTar(body, archive.format === 'tar.gz' || isGzip(body));
  } catch (error) {
    return fail(`a ${archive.format} archive`, `${body.length} bytes that do not open as ${archive.format}: ${(error as Error).message}`);
  }
  // `strip` leading folders (a top folder whose name holds a commit id): entries not below them are dropped.
  const strip = archive.strip === 'auto' ? (singleTopFolder(entries) ? 1 : 0) : (archive.strip ?? 0);
  if (strip > 0)
    entries = entries.flatMap((e) => {
      const rest = e.path.split('/').slice(strip).join('/');
      return rest === '' ? [] : [{ ...e, path: rest }];
    });
  const listed = summarize(entries.map((e) => e.path));
  if (archive.count !== undefined && entries.length !== archive.count)
    fail(`an archive of ${archive.count} entries`, `an archive of ${entries.length} entries (${listed})`);
  for (const wanted of archive.entries ?? []) {
    const label = `archive entry ${wanted.path}`;
    const entry = entries.find((e) => e.path === wanted.path.replace(/\/$/, ''));
    if (!entry) return fail(`an ${label}`, `an archive without it (${listed})`);
    if (wanted.type !== undefined && entry.type !== wanted.type) fail(`${label} of type ${wanted.type}`, `${label} of type ${entry.type}`);
    if (wanted.target !== undefined && entry.target !== wanted.target)
      fail(`${label} pointing to ${wanted.target}`, `${label} pointing to ${entry.target ?? 'nothing'}`);
    checkContent(entry.bytes, wanted, label, fail);
  }
}

function summarize(paths: string[]): string {
  return someOf(paths, 10) || 'nothing';
}

export function readZip(body: Buffer): ArchiveEntry[] {
  let expanded = 0;
  const files = unzipSync(new Uint8Array(body.buffer, body.byteOffset, body.length), {
    filter(file) {
      expanded += file.originalSize;
      if (expanded > MAX_EXPANDED_BYTES) throw new Error(`it expands to over ${MAX_EXPANDED_BYTES} bytes`);
      return true;
    },
  });
  return Object.entries(files).map(([name, data]) => {
    const directory = name.endsWith('/');
    return {
      path: directory ? name.slice(0, -1) : name,
      type: directory ? 'directory' : 'file',
      size: data.length,
      bytes: Buffer.from(data),
    };
  });
}

/** Whether the bytes start as gzip does (1f 8b). */
const isGzip = (body: Buffer) => body.length >= 2 && body[0] === 0x1f && body[1] === 0x8b;

/** Whether every entry sits under one and the same top folder (a tarball's `<repo>-<sha>/`). */
function singleTopFolder(entries: ArchiveEntry[]): boolean {
  const tops = new Set(entries.map((e) => e.path.split('/')[0]));
  return tops.size === 1 && entries.some((e) => e.path.includes('/'));
}

/** The entries of a tar, gunzipped first when `gzipped` (bounded as a zip is). */
export async function readTar(body: Buffer, gzipped: boolean): Promise<ArchiveEntry[]> {
  if (!gzipped && body.length > MAX_EXPANDED_BYTES) throw new Error(`it is over ${MAX_EXPANDED_BYTES} bytes`);
  const tar = gzipped ? gunzipSync(body, { maxOutputLength: MAX_EXPANDED_BYTES }) : body;
  const entries: ArchiveEntry[] = [];
  const reader = extract();
  const done = (async () => {
    for await (const entry of reader) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      const { name, type, linkname } = entry.header;
      if (type === 'file' || type === 'directory' || type === 'symlink' || type === 'link' || type === 'contiguous-file') {
        const bytes = Buffer.concat(chunks);
        entries.push({
          path: type === 'directory' ? name.replace(/\/$/, '') : name,
          type: type === 'contiguous-file' ? 'file' : type,
          size: bytes.length,
          ...(linkname ? { target: linkname } : {}),
          bytes,
        });
      }
    }
  })();
  reader.end(tar);
  await done;
  return entries;
}
