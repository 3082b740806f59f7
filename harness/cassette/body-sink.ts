// Captures a body while the proxy forwards it. write() is synchronous and never throws,
// because it sits on the forwarding path: a client must get its bytes even when the
// copy fails. Memory stays bounded (INLINE_TEXT_LIMIT per spool): anything bigger spills
// to a temp file in the blob folder, hashed as it is written, and becomes a
// content-addressed sidecar `sha256-<hex>` at end().
//
// Decisions where the brief is silent:
// - When a replacement changed the decoded bytes, the wire bytes are never kept as
//   `encoded` (they would carry the secret); replay re-encodes with node's defaults.
// - A body whose decoded form is empty but whose wire form is not (a gzip of nothing)
//   is still a body, so replay sends the same bytes; only an empty wire body is undefined.
// - Sidecars are fsynced before they are renamed into place, so a cassette that names
//   one (written later, atomically) never points at a partial blob after a crash.
// - A body stays as the chunks that came in until it outgrows INLINE_TEXT_LIMIT or ends:
//   most bodies are small and identity-coded, and for those the whole capture is one
//   concat, one replacement scan and toInlineBody at end(). Decoding, hashing and the
//   streaming replacer start only for a body that spills or carries a Content-Encoding.
//   (The sink is a class: tsx compiles with keepNames, which makes every named closure
//   a factory creates cost a defineProperty, per body.)
// - write() does not exert backpressure: the zlib decoder queues chunks the producer
//   outruns. The proxy's producer is a socket, slower than inflate, so this stays small.
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, createReadStream, existsSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import { HarnessError } from '../core/errors.js';
import { createContentDecoder, createContentEncoder, toInlineBody } from './body-codec.js';
import { createRedactingWriter, NO_REPLACEMENTS, type BodyRedaction, replaceAll } from '../secrets/byte-replacer.js';
import { relativePathProblem } from './cassette-load.js';
import { INLINE_BINARY_LIMIT, INLINE_TEXT_LIMIT, type Body, type BodyData, type ContentCoding } from './cassette-format.js';
import { makeDirectory } from '../../lib/make-directory.js';

export interface BodySinkOptions extends BodyRedaction {
  /** Absolute folder for sidecars. */
  blobDir: string;
  /** blobDir relative to the cassette's folder, with forward slashes, e.g. "widgets.blobs". */
  blobPrefix: string;
  /** The response's Content-Encoding; the stored body is the decoded bytes. */
  contentEncoding?: ContentCoding;
}

export interface BodySink {
  write(chunk: Buffer): void;
  /** The recorded body, or undefined when nothing came over the wire. */
  end(): Promise<Body | undefined>;
  /** Drops everything captured so far, temp files included. */
  abort(): void;
}

type SidecarData = Extract<BodyData, { file: string }>;

export function createBodySink(options: BodySinkOptions): BodySink {
  if (!path.isAbsolute(options.blobDir)) throw new HarnessError('USAGE', `blobDir ${options.blobDir} must be an absolute path`);
  const prefixProblem = relativePathProblem(options.blobPrefix);
  if (prefixProblem) throw new HarnessError('USAGE', `blobPrefix "${options.blobPrefix}" ${prefixProblem}`);
  return new BufferedSink(options);
}

/** Holds a small body as its chunks; hands everything to a streaming sink once it spills. */
class BufferedSink implements BodySink {
  private chunks: Buffer[] = [];
  private size = 0;
  private streaming: BodySink | undefined;
  private state: 'open' | 'done' = 'open';

  constructor(private readonly options: BodySinkOptions) {}

  write(chunk: Buffer): void {
    if (this.state !== 'open' || chunk.length === 0) return;
    if (this.streaming) return this.streaming.write(chunk);
    // A copy: the caller may reuse its buffer once write() returns.
    this.chunks.push(Buffer.from(chunk));
    this.size += chunk.length;
    if (this.size > INLINE_TEXT_LIMIT) this.spill();
  }

  async end(): Promise<Body | undefined> {
    if (this.state !== 'open') throw new HarnessError('USAGE', 'body sink already ended or aborted');
    if (!this.streaming && this.options.contentEncoding && this.size > 0) this.spill();
    if (this.streaming) {
      this.state = 'done';
      return this.streaming.end();
    }
    this.state = 'done';
    if (this.size === 0) return undefined;
    const bytes = replaceAll(
      this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks),
      this.options.replacements ?? NO_REPLACEMENTS,
    );
    this.chunks = [];
    return toInlineBody(bytes) ?? createBlobStore(this.options.blobDir, this.options.blobPrefix).saveBytes(bytes, sha256Hex(bytes));
  }

  abort(): void {
    this.state = 'done';
    this.chunks = [];
    this.streaming?.abort();
  }

  private spill(): void {
    const streaming = createStreamingSink(this.options);
    for (const chunk of this.chunks) streaming.write(chunk);
    this.chunks = [];
    this.streaming = streaming;
  }
}

const sha256Hex = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** The full capture: decoding, hashing as it goes, spilling to a temp file past INLINE_TEXT_LIMIT. */
function createStreamingSink(options: BodySinkOptions): BodySink {
  const blobs = createBlobStore(options.blobDir, options.blobPrefix);
  const coding = options.contentEncoding;
  const wire = coding ? createSpool(blobs) : undefined;
  let stored = createSpool(blobs);
  let replacer = createRedactingWriter(options, (bytes) => stored.write(bytes));
  const decoder = coding ? createContentDecoder(coding) : undefined;
  let corrupt = false;
  let failure: unknown;
  let wireSize = 0;
  let state: 'open' | 'ending' | 'done' = 'open';

  const guard = (action: () => void): void => {
    try {
      action();
    } catch (error) {
      failure ??= error;
    }
  };
  // Output after a failure belongs to the abandoned decoded copy, never to the raw one.
  decoder?.on('data', (bytes: Buffer) => {
    if (!corrupt) guard(() => replacer.write(bytes));
  });
  decoder?.on('error', () => {
    corrupt = true;
  });

  const discardAll = (): void => {
    decoder?.destroy();
    stored.discard();
    wire?.discard();
  };

  async function finish(): Promise<Body | undefined> {
    if (decoder && !corrupt) {
      decoder.end();
      await finished(decoder).catch(() => {
        corrupt = true;
      });
      // A stream that ends before its bytes do (a brotli stream whose first block says
      // "last, empty", then anything) is not what the header claimed either.
      if (decoder.bytesWritten < wireSize) corrupt = true;
    }
    if (failure) throw failure;
    if (wireSize === 0) {
      discardAll();
      return undefined;
    }
    if (wire && corrupt) {
      // Not what the header claimed: keep the wire bytes as they are, with no coding.
      stored.discard();
      stored = createSpool(blobs);
      replacer = createRedactingWriter(options, (bytes) => stored.write(bytes));
      const raw = wire.finish();
      if (raw.bytes) replacer.write(raw.bytes);
      else for await (const chunk of createReadStream(raw.tempFile!)) replacer.write(chunk as Buffer);
      wire.discard();
    }
    replacer.flush();
    if (failure) throw failure;
    const spooled = stored.finish();
    const data = spooled.bytes ? (toInlineBody(spooled.bytes) ?? blobs.saveBytes(spooled.bytes, spooled.sha256)) : blobs.saveFile(spooled);
    if (!wire || corrupt) return data;
    const body: Body = { contentEncoding: coding, ...data };
    const onWire = wire.finish();
    const reencoded = spooled.bytes ?? blobs.pathOf((data as SidecarData).sha256);
    if (!replacer.replaced && (await reencodedSha256(coding!, reencoded)) !== onWire.sha256) {
      body.encoded = keepBytes(onWire, blobs);
    }
    wire.discard();
    return body;
  }

  return {
    write(chunk) {
      if (state !== 'open' || chunk.length === 0) return;
      wireSize += chunk.length;
      guard(() => {
        wire?.write(chunk);
        if (!decoder) replacer.write(chunk);
        else if (!corrupt) decoder.write(chunk);
      });
    },
    async end() {
      if (state !== 'open') throw new HarnessError('USAGE', 'body sink already ended or aborted');
      state = 'ending';
      try {
        return await finish();
      } catch (error) {
        discardAll();
        throw error;
      } finally {
        state = 'done';
      }
    },
    abort() {
      state = 'done';
      discardAll();
    },
  };
}

function keepBytes(spooled: SpoolResult, blobs: BlobStore): NonNullable<Body['encoded']> {
  if (!spooled.bytes) return blobs.saveFile(spooled);
  if (spooled.size <= INLINE_BINARY_LIMIT) return { base64: spooled.bytes.toString('base64') };
  return blobs.saveBytes(spooled.bytes, spooled.sha256);
}

/**
 * What node's defaults make of the stored bytes. Streamed even for small bodies: the
 * encoder then runs on the thread pool, and brotli's default quality would otherwise
 * stall the proxy's event loop for a second per MiB.
 */
async function reencodedSha256(coding: ContentCoding, source: Buffer | string): Promise<string> {
  const hash = createHash('sha256');
  const input = typeof source === 'string' ? createReadStream(source) : Readable.from([source]);
  await pipeline(input, createContentEncoder(coding), async (encoded: AsyncIterable<Buffer>) => {
    for await (const chunk of encoded) hash.update(chunk);
  });
  return hash.digest('hex');
}

interface SpoolResult {
  size: number;
  sha256: string;
  /** Set while the bytes fit in memory ... */
  bytes?: Buffer;
  /** ... else the temp file holding them. */
  tempFile?: string;
}

interface Spool {
  write(bytes: Buffer): void;
  finish(): SpoolResult;
  discard(): void;
}

function createSpool(blobs: BlobStore): Spool {
  const hash = createHash('sha256');
  let chunks: Buffer[] = [];
  let size = 0;
  let temp: { fd: number; file: string } | undefined;
  let result: SpoolResult | undefined;
  return {
    write(bytes) {
      hash.update(bytes);
      size += bytes.length;
      if (temp) return writeFileSync(temp.fd, bytes);
      // A copy: the caller may reuse its buffer once write() returns.
      chunks.push(Buffer.from(bytes));
      if (size <= INLINE_TEXT_LIMIT) return;
      temp = blobs.openTemp();
      for (const chunk of chunks) writeFileSync(temp.fd, chunk);
      chunks = [];
    },
    finish() {
      if (result) return result;
      if (!temp) return (result = { size, sha256: hash.digest('hex'), bytes: Buffer.concat(chunks) });
      closeSync(temp.fd);
      temp.fd = -1;
      return (result = { size, sha256: hash.digest('hex'), tempFile: temp.file });
    },
    discard() {
      chunks = [];
      if (!temp) return;
      if (temp.fd >= 0) closeSync(temp.fd);
      temp.fd = -1;
      rmSync(temp.file, { force: true });
    },
  };
}

interface BlobStore {
  openTemp(): { fd: number; file: string };
  /** Moves a spooled temp file to its content address (dropping it when that exists). */
  saveFile(spooled: SpoolResult): SidecarData;
  saveBytes(bytes: Buffer, sha256: string): SidecarData;
  pathOf(sha256: string): string;
}

function createBlobStore(blobDir: string, blobPrefix: string): BlobStore {
  const pathOf = (hex: string): string => path.join(blobDir, `sha256-${hex}`);
  const ref = (hex: string, size: number): SidecarData => ({ file: `${blobPrefix}/sha256-${hex}`, sha256: hex, size });
  const openTemp = (): { fd: number; file: string } => {
    makeDirectory(blobDir);
    const file = path.join(blobDir, `.tmp-${process.pid}-${randomBytes(6).toString('hex')}`);
    return { fd: openSync(file, 'wx'), file };
  };
  const promote = (file: string, hex: string): void => {
    if (existsSync(pathOf(hex))) return rmSync(file, { force: true });
    const fd = openSync(file, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(file, pathOf(hex));
  };
  return {
    openTemp,
    pathOf,
    saveFile(spooled) {
      promote(spooled.tempFile!, spooled.sha256);
      return ref(spooled.sha256, spooled.size);
    },
    saveBytes(bytes, hex) {
      if (!existsSync(pathOf(hex))) {
        const temp = openTemp();
        try {
          writeFileSync(temp.fd, bytes);
        } finally {
          closeSync(temp.fd);
        }
        promote(temp.file, hex);
      }
      return ref(hex, bytes.length);
    },
  };
}
