// What every benchmark serves and replays: small JSON items at `/items/<n>`, the same
// bytes from the bare server and from a cassette, plus the two routes of the 1 GiB
// memory scenarios (an upload sink and a streamed download), all generated in chunks so
// no process ever holds a whole large body.
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { CASSETTE_VERSION, RECORDED_HOST, type Cassette, type Interaction } from '../harness/cassette/cassette-format.js';
import { serializeCassette } from '../harness/cassette/cassette-serialize.js';

export const ITEM_PREFIX = '/items/';
export const ITEM_CONTENT_TYPE = 'application/json; charset=utf-8';
export const SINK_PATH = '/sink';
export const STREAM_PREFIX = '/stream/';
/** One chunk of every generated large body; the whole body is this, repeated and cut to size. */
export const STREAM_CHUNK = 64 * 1024;

export const itemPath = (n: number): string => `${ITEM_PREFIX}${n}`;

/** About 1 KB, the size of a typical API answer (a small one flatters per-byte costs away). */
const DESCRIPTION = 'A benchmark item: '.padEnd(800, 'lorem ipsum dolor sit amet, consectetur adipiscing elit; ');

/** JSON.stringify output, so the cassette stores it as `json` and replays the same bytes. */
export function itemJson(n: number): string {
  return JSON.stringify({
    id: n,
    name: `item ${n}`,
    description: DESCRIPTION,
    price: { amount: (n % 1000) * 7 + 99, currency: 'EUR' },
    tags: ['bench', n % 2 === 1 ? 'odd' : 'even'],
    active: true,
    url: `https://example.test/items/${n}`,
    updated_at: '2024-01-01T00:00:00Z',
  });
}

/** The headers the bare server sends and the cassette holds (no Date: neither side sends one). */
export function itemHeaders(body: string): [string, string][] {
  return [
    ['content-type', ITEM_CONTENT_TYPE],
    ['content-length', String(Buffer.byteLength(body))],
  ];
}

export function itemInteraction(n: number, seq: number): Interaction {
  const text = itemJson(n);
  return {
    seq,
    // autocannon sends only Host, which is not part of the match key.
    request: { method: 'GET', url: itemPath(n), headers: [['host', RECORDED_HOST]] },
    response: { status: 200, headers: itemHeaders(text), body: { json: JSON.parse(text) as unknown } },
  };
}

/** A cassette answering `/items/1` … `/items/<count>`, one interaction each. */
export function writeItemCassette(file: string, count: number): void {
  const interactions: Interaction[] = [];
  for (let n = 1; n <= count; n++) interactions.push(itemInteraction(n, n));
  const cassette: Cassette = {
    cassetteVersion: CASSETTE_VERSION,
    name: `items-${count}`,
    recordedAt: '2024-01-01T00:00:00.000Z',
    redactions: [],
    interactions,
  };
  writeFileSync(file, serializeCassette(cassette));
}

/** Yields `bytes` bytes in STREAM_CHUNK pieces, all views of one shared buffer. */
export function* streamChunks(bytes: number): Generator<Buffer> {
  const chunk = Buffer.alloc(STREAM_CHUNK);
  for (let i = 0; i < chunk.length; i++) chunk[i] = 32 + (i % 95); // printable, not compressible to nothing
  for (let sent = 0; sent < bytes; sent += chunk.length) {
    yield sent + chunk.length <= bytes ? chunk : chunk.subarray(0, bytes - sent);
  }
}

/**
 * The bare server: the baseline of the replay ratio and the upstream of every record
 * scenario. Item bodies are built once per n, as replay prepares them once per interaction.
 */
export function createItemServer(): http.Server {
  const items = new Map<number, { body: Buffer; headers: string[] }>();
  const item = (n: number) => {
    let cached = items.get(n);
    if (!cached) {
      const text = itemJson(n);
      cached = { body: Buffer.from(text), headers: itemHeaders(text).flat() };
      items.set(n, cached);
    }
    return cached;
  };
  return http.createServer((req, res) => {
    const url = req.url ?? '/';
    if (url.startsWith(ITEM_PREFIX)) {
      const n = Number(url.slice(ITEM_PREFIX.length));
      if (Number.isInteger(n) && n > 0) {
        const { body, headers } = item(n);
        res.sendDate = false;
        res.writeHead(200, headers);
        res.end(body);
        return;
      }
    }
    if (url === SINK_PATH && req.method === 'POST') {
      let received = 0;
      req.on('data', (chunk: Buffer) => (received += chunk.length));
      req.on('end', () => {
        const body = JSON.stringify({ received });
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
      });
      return;
    }
    if (url.startsWith(STREAM_PREFIX)) {
      const bytes = Number(url.slice(STREAM_PREFIX.length));
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': bytes });
      const chunks = streamChunks(bytes);
      // Honour backpressure: write until the socket is full, continue on drain.
      const pump = (): void => {
        for (let next = chunks.next(); !next.done; next = chunks.next()) {
          if (!res.write(next.value)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
      return;
    }
    res.writeHead(404, { 'content-length': 0 }).end();
  });
}
