import { expect, test } from '@playwright/test';
import zlib from 'node:zlib';
import { inlineBodyBytes, toInlineBody } from './body-codec.js';
import type { Body, Cassette } from './cassette-format.js';
import { parseCassette } from './cassette-load.js';
import { serializeCassette } from './cassette-serialize.js';
import { toHar, type Har } from './har-export.js';
import { fromHar } from './har-import.js';

const inline = (bytes: Buffer | string) => toInlineBody(Buffer.from(bytes))!;
const binary = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0x00, 0xfe]);

function sample(): Cassette {
  return {
    cassetteVersion: 1,
    name: 'sample',
    recordedAt: '2026-03-04T05:06:07Z',
    redactions: [],
    interactions: [
      {
        seq: 1,
        request: {
          method: 'GET',
          url: '/repos/o/r?per_page=2&page=1',
          headers: [
            ['host', 'target.invalid'],
            ['accept', 'application/json'],
          ],
        },
        response: {
          status: 200,
          headers: [
            ['content-type', 'application/json'],
            ['link', '<http://target.invalid/repos/o/r?page=2>; rel="next"'],
            ['set-cookie', 'a=1'],
            ['set-cookie', 'b=2'],
          ],
          body: inline('{"name":"r","big":9223372036854775807}'),
        },
      },
      {
        seq: 2,
        request: { method: 'POST', url: '/upload', headers: [['content-type', 'application/octet-stream']], body: inline(binary) },
        response: { status: 201, statusText: 'Made It', headers: [['content-type', 'image/png']], body: inline(binary) },
      },
      {
        seq: 3,
        request: { method: 'GET', url: '/missing', headers: [] },
        response: { status: 404, headers: [['content-type', 'text/plain']], body: inline('not here\n') },
      },
      {
        seq: 4,
        request: { method: 'GET', url: '/moved', headers: [] },
        response: { status: 302, headers: [['location', 'http://target.invalid/missing']] },
      },
    ],
  };
}

const readBody = (b: Body) => inlineBodyBytes(b);

test('export then import keeps method, url, status, headers and bodies', () => {
  const original = sample();
  const har = toHar(original, { origin: 'http://127.0.0.1:9', readBody });
  expect(har.log.version).toBe('1.2');
  expect(har.log.entries[0].request.url).toBe('http://127.0.0.1:9/repos/o/r?per_page=2&page=1');
  expect(har.log.entries[0].request.queryString).toEqual([
    { name: 'per_page', value: '2' },
    { name: 'page', value: '1' },
  ]);
  expect(har.log.entries[0].response.headers[1].value).toBe('<http://127.0.0.1:9/repos/o/r?page=2>; rel="next"');
  expect(har.log.entries[1].response.content).toEqual({
    size: 7,
    mimeType: 'image/png',
    text: binary.toString('base64'),
    encoding: 'base64',
  });
  expect(har.log.entries[1].request.postData).toEqual({
    mimeType: 'application/octet-stream',
    text: binary.toString('base64'),
    encoding: 'base64',
  });
  expect(har.log.entries[3].response.redirectURL).toBe('http://127.0.0.1:9/missing');
  // The export is deterministic JSON, and re-imports through JSON text.
  const imported = fromHar(JSON.parse(JSON.stringify(har)), 'sample');
  expect(imported).toEqual(original);
  expect(parseCassette(serializeCassette(imported), 'imported.cassette.json')).toEqual(original);
});

test('a coded response is exported decoded, without content-encoding and with its decoded length', () => {
  const c = sample();
  c.interactions = [
    {
      seq: 1,
      request: { method: 'GET', url: '/z', headers: [] },
      response: {
        status: 200,
        headers: [
          ['content-encoding', 'gzip'],
          ['content-length', '30'],
        ],
        body: { ...inline('hello'), contentEncoding: 'gzip' },
      },
    },
  ];
  const har = toHar(c, { readBody });
  expect(har.log.entries[0].response.headers).toEqual([{ name: 'content-length', value: '5' }]);
  expect(har.log.entries[0].response.content.text).toBe('hello');
  expect(fromHar(har, 'z').interactions[0].response).toEqual({ status: 200, headers: [['content-length', '5']], body: { text: 'hello' } });
});

test('a browser HAR: entries sorted by time, pseudo-headers and content-encoding dropped, host normalised', () => {
  const entry = (url: string, started: string, text: string) => ({
    startedDateTime: started,
    request: {
      method: 'GET',
      url,
      headers: [
        { name: ':authority', value: 'api.example.test' },
        { name: 'Host', value: 'api.example.test' },
      ],
    },
    response: {
      status: 200,
      headers: [
        { name: 'content-encoding', value: 'br' },
        { name: 'content-length', value: String(zlib.brotliCompressSync(text).length) },
      ],
      content: { size: text.length, text },
    },
  });
  const har = {
    log: {
      entries: [
        entry('https://api.example.test/b', '2026-01-01T00:00:02.000Z', 'second'),
        entry('https://api.example.test/a?x=1', '2026-01-01T00:00:01.000Z', 'first'),
      ],
    },
  };
  const c = fromHar(har, 'browser');
  expect(c.recordedAt).toBe('2026-01-01T00:00:01.000Z');
  expect(c.interactions.map((i) => [i.seq, i.request.url])).toEqual([
    [1, '/a?x=1'],
    [2, '/b'],
  ]);
  expect(c.interactions[0].request.headers).toEqual([['Host', 'target.invalid']]);
  expect(c.interactions[0].response).toEqual({ status: 200, headers: [['content-length', '5']], body: { text: 'first' } });
});

test('malformed or unsupported HARs are refused with messages that name the entry', () => {
  const good = toHar(sample(), { readBody }) as Har;
  const withEntry = (change: (e: Record<string, any>) => void) => {
    const copy = structuredClone(good) as unknown as { log: { entries: Record<string, any>[] } };
    change(copy.log.entries[2]);
    return copy;
  };
  expect(() => fromHar({}, 'x')).toThrow(/must be a JSON object with a "log" object/);
  expect(() => fromHar({ log: { entries: [] } }, 'x')).toThrow(/log.entries is empty/);
  expect(() =>
    fromHar(
      withEntry((e) => (e.request.url = 'https://elsewhere.test/x')),
      'x',
    ),
  ).toThrow(
    /log.entries\[2\] \(GET https:\/\/elsewhere.test\/x\) is on https:\/\/elsewhere.test, but a cassette records one origin, the first entry's \(http:\/\/target.invalid\)/,
  );
  expect(() =>
    fromHar(
      withEntry((e) => (e.response.status = 0)),
      'x',
    ),
  ).toThrow(/log.entries\[2\] \(GET http:\/\/target.invalid\/missing\) has status 0/);
  expect(() =>
    fromHar(
      withEntry((e) => (e.response.headers = 'nope')),
      'x',
    ),
  ).toThrow(/log.entries\[2\].response.headers must be an array/);
  expect(() =>
    fromHar(
      withEntry((e) => (e.response.content = { _file: 'x.bin' })),
      'x',
    ),
  ).toThrow(/_file.*not supported/);
  const huge = Buffer.alloc(64 * 1024, 0xff).toString('base64');
  expect(() =>
    fromHar(
      withEntry((e) => (e.response.content = { size: 1, text: huge, encoding: 'base64' })),
      'x',
    ),
  ).toThrow(/log.entries\[2\] \(GET http:\/\/target.invalid\/missing\) response body is 65536 bytes, too big to keep inline/);
});
