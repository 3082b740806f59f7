// Test support: an upstream that produces every kind of response the byte-exact round
// trip must survive (issue 3, "Done when"). Deterministic: the same request always gets
// the same bytes, except /counter, whose state PUT changes.
import { createHash } from 'node:crypto';
import http from 'node:http';
import zlib from 'node:zlib';

export interface FixtureServer {
  url: string;
  /** TCP connections accepted so far (the replay-stays-offline sentinel). */
  connections(): number;
  close(): Promise<void>;
}

/** 1 MiB of pseudo-random bytes from a fixed seed. */
export const RANDOM_MIB = (() => {
  const out = Buffer.alloc(1024 * 1024);
  let block = Buffer.from('touchstone');
  for (let offset = 0; offset < out.length; offset += 32) {
    block = createHash('sha256').update(block).digest();
    block.copy(out, offset);
  }
  return out;
})();

const DATE = 'Mon, 01 Jun 2026 12:00:00 GMT';
const json = (value: unknown) => Buffer.from(JSON.stringify(value));

export async function startFidelityFixture(): Promise<FixtureServer> {
  let counter = 0;
  let connections = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.sendDate = false;
      const url = new URL(req.url ?? '/', 'http://fixture');
      const send = (status: number, headers: [string, string][], body?: Buffer) => {
        res.writeHead(status, [['Date', DATE], ...headers].flat());
        res.end(body);
      };
      const origin = `http://${req.headers.host}`;
      switch (url.pathname) {
        case '/gzip':
        case '/br':
        case '/deflate': {
          const body = json({ coding: url.pathname.slice(1), items: Array.from({ length: 50 }, (_, i) => ({ i, name: `item ${i}` })) });
          const encoded =
            url.pathname === '/gzip'
              ? zlib.gzipSync(body)
              : url.pathname === '/br'
                ? zlib.brotliCompressSync(body)
                : zlib.deflateSync(body);
          return send(
            200,
            [
              ['Content-Type', 'application/json'],
              ['Content-Encoding', url.pathname.slice(1)],
              ['Content-Length', String(encoded.length)],
            ],
            encoded,
          );
        }
        case '/gzip-level1': {
          const encoded = zlib.gzipSync(Buffer.from('level one '.repeat(500)), { level: 1 });
          return send(
            200,
            [
              ['Content-Type', 'text/plain'],
              ['Content-Encoding', 'gzip'],
              ['Content-Length', String(encoded.length)],
            ],
            encoded,
          );
        }
        case '/chunked':
          res.writeHead(200, ['Date', DATE, 'Content-Type', 'text/plain', 'Transfer-Encoding', 'chunked']);
          res.write('first chunk\n');
          res.write('second chunk\n');
          return res.end('last chunk\n');
        case '/length':
          return send(
            200,
            [
              ['Content-Type', 'text/plain'],
              ['Content-Length', '12'],
            ],
            Buffer.from('hello world\n'),
          );
        case '/binary':
          return send(
            200,
            [
              ['Content-Type', 'application/octet-stream'],
              ['Content-Length', String(RANDOM_MIB.length)],
            ],
            RANDOM_MIB,
          );
        case '/invalid-utf8': {
          const body = Buffer.from([0x6f, 0x6b, 0x20, 0xff, 0xfe, 0xc3, 0x28, 0x0a]);
          return send(
            200,
            [
              ['Content-Type', 'text/plain; charset=utf-8'],
              ['Content-Length', String(body.length)],
            ],
            body,
          );
        }
        case '/big-int': {
          const body = Buffer.from('{"max":9223372036854775807,"min":-9223372036854775808}');
          return send(
            200,
            [
              ['Content-Type', 'application/json'],
              ['Content-Length', String(body.length)],
            ],
            body,
          );
        }
        case '/no-content':
          return send(204, []);
        case '/etag':
          if (req.headers['if-none-match'] === '"v1"') return send(304, [['ETag', '"v1"']]);
          return send(
            200,
            [
              ['ETag', '"v1"'],
              ['Content-Type', 'text/plain'],
              ['Content-Length', '3'],
            ],
            Buffer.from('v1\n'),
          );
        case '/cookies':
          return send(
            200,
            [
              ['Set-Cookie', 'theme=t-91c2d7; Path=/'],
              ['Content-Type', 'text/plain'],
              ['Set-Cookie', 'lang=l-55e0aa; Path=/; HttpOnly'],
              ['Set-Cookie', 'session=s3cr3t-session; Secure'],
              ['Content-Length', '2'],
            ],
            Buffer.from('ok'),
          );
        case '/redirect':
          return send(302, [
            ['Location', `${origin}/length`],
            ['Content-Length', '0'],
          ]);
        case '/counter':
          if (req.method === 'PUT') counter = Number(Buffer.concat(chunks).toString()) || 0;
          return send(200, [['Content-Type', 'application/json']], json({ counter }));
        case '/echo':
          return send(200, [['Content-Type', req.headers['content-type'] ?? 'application/octet-stream']], Buffer.concat(chunks));
        default:
          return send(404, [['Content-Type', 'application/json']], json({ message: 'Not Found' }));
      }
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => connections,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
