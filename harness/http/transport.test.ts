// The wire under every check, against a real local server: exact headers out, raw answer back, and the ways an exchange fails.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import type { HeaderPairs } from '../core/results.js';
import { createHttpTransport, headerValue, type HttpTransport } from './transport.js';
import { harnessErrorOf } from '../../test-support/harness-error.js';

interface Seen {
  method: string;
  url: string;
  rawHeaders: string[];
  body: Buffer;
}

/**
 * Runs `use` with a transport (made with `options`) against a server on 127.0.0.1 that answers
 * with `handler`; closes both afterwards.
 */
async function withServer(
  handler: (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer) => void,
  use: (base: string, seen: Seen[], transport: HttpTransport) => Promise<void>,
  options: { timeoutMs?: number; timeoutOption?: string } = {},
): Promise<void> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({ method: req.method ?? '', url: req.url ?? '', rawHeaders: req.rawHeaders, body });
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const transport = createHttpTransport(options);
  try {
    await use(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, transport);
  } finally {
    transport.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** The raw header list a server saw, as pairs. */
const pairsOf = (raw: string[]): HeaderPairs => raw.flatMap((v, i) => (i % 2 === 0 ? [[v, raw[i + 1]] as [string, string]] : []));

test('exactly the given headers go out, in order and spelling, with Host added first and no User-Agent or Accept', async () => {
  await withServer(
    (_req, res) => res.end(),
    async (base, seen, transport) => {
      await transport.send({
        method: 'GET',
        url: `${base}/repos/o/r?per_page=2&q=a%20b`,
        headers: [
          ['x-Odd-Case', 'v 1'],
          ['X-Two', 'a'],
          ['X-Two', 'b'],
        ],
      });
      expect(seen[0].method).toBe('GET');
      expect(seen[0].url).toBe('/repos/o/r?per_page=2&q=a%20b');
      const sent = pairsOf(seen[0].rawHeaders);
      // The keep-alive agent's Connection header is the only one node:http adds.
      expect(sent.filter(([k]) => k.toLowerCase() !== 'connection')).toEqual([
        ['Host', base.slice('http://'.length)],
        ['x-Odd-Case', 'v 1'],
        ['X-Two', 'a'],
        ['X-Two', 'b'],
      ]);
      expect(sent.some(([k]) => /^(user-agent|accept)$/i.test(k))).toBe(false);
    },
  );
});

test('a Host the case gives is sent as given and not doubled', async () => {
  await withServer(
    (_req, res) => res.end(),
    async (base, seen, transport) => {
      await transport.send({
        method: 'GET',
        url: `${base}/`,
        headers: [
          ['X-First', '1'],
          ['host', 'api.example.test'],
        ],
      });
      const hosts = pairsOf(seen[0].rawHeaders).filter(([k]) => k.toLowerCase() === 'host');
      expect(hosts).toEqual([['host', 'api.example.test']]);
      expect(pairsOf(seen[0].rawHeaders)[0]).toEqual(['X-First', '1']);
    },
  );
});

test('a body goes out byte for byte with its Content-Length; without a body there is none', async () => {
  const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
  await withServer(
    (_req, res) => res.end(),
    async (base, seen, transport) => {
      await transport.send({ method: 'PUT', url: `${base}/blob`, headers: [['Content-Type', 'application/octet-stream']], body: bytes });
      await transport.send({ method: 'DELETE', url: `${base}/blob`, headers: [] });
      expect(seen[0].method).toBe('PUT');
      expect(seen[0].body.equals(bytes)).toBe(true);
      expect(pairsOf(seen[0].rawHeaders)).toContainEqual(['Content-Length', '256']);
      expect(seen[1].method).toBe('DELETE');
      expect(seen[1].body.length).toBe(0);
      expect(pairsOf(seen[1].rawHeaders).some(([k]) => /^(content-length|transfer-encoding)$/i.test(k))).toBe(false);
    },
  );
});

test('the answer comes back raw: status, header pairs in order with repeats kept, and the body bytes unchanged', async () => {
  const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
  await withServer(
    (_req, res) => {
      res.writeHead(418, [
        'X-Zeta',
        'last-alphabetically',
        'Set-Cookie',
        'a=1; Path=/',
        'set-cookie',
        'b=2',
        'Content-Type',
        'application/octet-stream',
      ]);
      res.end(bytes);
    },
    async (base, _seen, transport) => {
      const response = await transport.send({ method: 'GET', url: `${base}/teapot`, headers: [] });
      expect(response.status).toBe(418);
      expect(response.headers.slice(0, 4)).toEqual([
        ['X-Zeta', 'last-alphabetically'],
        ['Set-Cookie', 'a=1; Path=/'],
        ['set-cookie', 'b=2'],
        ['Content-Type', 'application/octet-stream'],
      ]);
      expect(Buffer.isBuffer(response.body)).toBe(true);
      expect(response.body.equals(bytes)).toBe(true);
      expect(headerValue(response.headers, 'SET-COOKIE')).toBe('a=1; Path=/, b=2');
    },
  );
});

test('one transport sends several requests over its one kept-alive connection', async () => {
  await withServer(
    (req, res) => res.end(`${req.url} ${req.socket.remotePort}`),
    async (base, _seen, transport) => {
      const answers: string[] = [];
      for (const n of [1, 2, 3]) answers.push((await transport.send({ method: 'GET', url: `${base}/${n}`, headers: [] })).body.toString());
      expect(answers.map((a) => a.split(' ')[0])).toEqual(['/1', '/2', '/3']);
      expect(new Set(answers.map((a) => a.split(' ')[1])).size).toBe(1);
    },
  );
});

test('a response body over 32 MiB keeps its status and headers, and is marked truncated at 32 MiB', async () => {
  const chunk = Buffer.alloc(1024 * 1024, 0x61);
  await withServer(
    (_req, res) => {
      // Streams 40 MiB of the same chunk, following backpressure, until done or the client hangs up.
      let left = 40;
      let gone = false;
      res.on('close', () => {
        gone = true;
      });
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(left * chunk.length) });
      const pump = () => {
        while (!gone && left > 0) {
          left--;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        if (!gone) res.end();
      };
      pump();
    },
    async (base, _seen, transport) => {
      const response = await transport.send({ method: 'GET', url: `${base}/huge`, headers: [] });
      expect(response.status).toBe(200);
      expect(response.truncated).toBe(true);
      expect(response.body.length).toBe(32 * 1024 * 1024);
      expect(response.headers).toContainEqual(['Content-Length', String(40 * chunk.length)]);
      // The connection is not reused for the next request: it answers in full.
      expect((await transport.send({ method: 'GET', url: `${base}/again`, headers: [] })).truncated).toBe(true);
    },
  );
});

const stalls: [title: string, handler: http.RequestListener][] = [
  ['a target that does not answer', () => {}],
  [
    'a body that stops arriving',
    (_req, res) => {
      res.writeHead(200, { 'Content-Length': '10' });
      res.write('half');
    },
  ],
  [
    // The bound is the request's whole time, not the silence between two bytes.
    'a body trickling a byte at a time, never silent for long',
    (_req, res) => {
      res.writeHead(200, { 'Content-Length': '1000' });
      const drip = setInterval(() => (res.writableEnded || res.destroyed ? clearInterval(drip) : res.write('x')), 50);
      res.on('close', () => clearInterval(drip));
    },
  ],
];

for (const [title, handler] of stalls) {
  test(`${title} is a TARGET_IO error once the timeout passes, saying so`, async () => {
    await withServer(
      handler,
      async (base, _seen, transport) => {
        const error = await harnessErrorOf(transport.send({ method: 'GET', url: `${base}/slow`, headers: [] }));
        expect(error.code).toBe('TARGET_IO');
        expect(error.message).toBe(`GET ${base}/slow: no answer within 0.3 s (--request-timeout)`);
      },
      { timeoutMs: 300, timeoutOption: '--request-timeout' },
    );
  });
}

test('a refused connection is a TARGET_IO error naming the method and URL', async () => {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  const transport = createHttpTransport();
  try {
    const url = `http://127.0.0.1:${port}/repos/o/r`;
    const error = await harnessErrorOf(transport.send({ method: 'PATCH', url, headers: [], body: Buffer.from('{}') }));
    expect(error.code).toBe('TARGET_IO');
    expect(error.message).toContain(`PATCH ${url}: `);
    expect(error.message).toMatch(/ECONNREFUSED/);
  } finally {
    transport.close();
  }
});

test('headerValue finds a header whatever its case and joins repeats with ", "; absent is undefined', () => {
  const headers: HeaderPairs = [
    ['Content-Type', 'application/json'],
    ['Vary', 'Accept'],
    ['x-other', 'z'],
    ['VARY', 'Authorization'],
    ['vary', ''],
  ];
  expect(headerValue(headers, 'content-type')).toBe('application/json');
  expect(headerValue(headers, 'CONTENT-TYPE')).toBe('application/json');
  expect(headerValue(headers, 'Vary')).toBe('Accept, Authorization, ');
  expect(headerValue(headers, 'link')).toBeUndefined();
  expect(headerValue([], 'vary')).toBeUndefined();
});
