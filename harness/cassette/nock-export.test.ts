import { expect, test } from '@playwright/test';
import http from 'node:http';
import nock from 'nock';
import { inlineBodyBytes, toInlineBody } from './body-codec.js';
import type { Cassette, Interaction } from './cassette-format.js';
import { toHar } from './har-export.js';
import { toNockDefinitions } from './nock-export.js';

const inline = (bytes: Buffer | string) => toInlineBody(Buffer.from(bytes))!;
const binary = Buffer.from([0x00, 0xff, 0xfe, 0x80, 0x41]);
const get = (seq: number, url: string, response: Interaction['response']): Interaction => ({
  seq,
  request: { method: 'GET', url, headers: [['accept', 'application/json']] },
  response,
});

const cassette: Cassette = {
  cassetteVersion: 1,
  name: 'nock',
  recordedAt: '2026-03-04T05:06:07Z',
  redactions: [],
  interactions: [
    get(1, '/repos/o/r/issues?state=open&page=1', {
      status: 200,
      headers: [
        ['content-type', 'application/json'],
        ['set-cookie', 'a=1'],
        ['set-cookie', 'b=2'],
      ],
      body: inline('{"count":1}'),
    }),
    get(2, '/repos/o/r/issues?state=open&page=1', {
      status: 200,
      headers: [['content-type', 'application/json']],
      body: inline('{"count":2}'),
    }),
    {
      seq: 3,
      request: { method: 'POST', url: '/repos/o/r/issues', headers: [['content-type', 'application/json']], body: inline('{"title":"t"}') },
      response: {
        status: 201,
        headers: [
          ['content-type', 'application/json'],
          ['location', 'http://target.invalid/repos/o/r/issues/9'],
        ],
        body: inline('{\n  "number": 9\n}'),
      },
    },
    get(4, '/avatar', { status: 200, headers: [['content-type', 'image/png']], body: inline(binary) }),
    get(5, '/zipped', {
      status: 200,
      headers: [
        ['content-type', 'text/plain'],
        ['content-encoding', 'gzip'],
        ['content-length', '33'],
      ],
      body: { ...inline('decoded text'), contentEncoding: 'gzip' },
    }),
    get(6, '/missing', { status: 404, headers: [['content-type', 'text/plain']], body: inline('not found') }),
    { seq: 7, request: { method: 'DELETE', url: '/repos/o/r', headers: [] }, response: { status: 204, headers: [] } },
  ],
};

interface Answer {
  status: number;
  headers: string[];
  body: Buffer;
}

function call(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`http://api.example.test${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.rawHeaders, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** nock answers a miss with 501 ERR_NOCK_NO_MATCH while other interceptors remain, and throws once none do. */
const missed = (answer: Promise<Answer>) =>
  answer.then(
    (a) => a.status === 501 && a.body.toString().includes('ERR_NOCK_NO_MATCH'),
    (error: Error) => /^Nock: /.test(error.message),
  );

// Importing nock switches interception on for the whole worker; leave it off for the next file.
test.afterEach(() => {
  nock.cleanAll();
  nock.enableNetConnect();
  nock.restore();
});

test('nock.define serves the exported interactions in order, in-process', async () => {
  if (!nock.isActive()) nock.activate();
  nock.disableNetConnect();
  const definitions = toNockDefinitions(cassette, { origin: 'http://api.example.test', readBody: inlineBodyBytes });
  nock.define(definitions);

  const first = await call('GET', '/repos/o/r/issues?state=open&page=1', { accept: 'application/json' });
  const second = await call('GET', '/repos/o/r/issues?state=open&page=1', { accept: 'application/json' });
  expect([first.status, first.body.toString(), second.body.toString()]).toEqual([200, '{"count":1}', '{"count":2}']);
  expect(first.headers).toEqual(['content-type', 'application/json', 'set-cookie', 'a=1', 'set-cookie', 'b=2']);

  const created = await call('POST', '/repos/o/r/issues', { 'content-type': 'application/json' }, '{"title":"t"}');
  expect(created.status).toBe(201);
  // Byte-exact: the pretty-printed body is not re-serialised by nock.
  expect(created.body.toString()).toBe('{\n  "number": 9\n}');
  expect(created.headers).toContain('http://api.example.test/repos/o/r/issues/9');

  const avatar = await call('GET', '/avatar');
  expect([avatar.status, avatar.body]).toEqual([200, binary]);

  const zipped = await call('GET', '/zipped');
  expect([zipped.body.toString(), zipped.headers]).toEqual(['decoded text', ['content-type', 'text/plain', 'content-length', '12']]);

  expect((await call('GET', '/missing')).status).toBe(404);
  const deleted = await call('DELETE', '/repos/o/r');
  expect([deleted.status, deleted.body.length]).toEqual([204, 0]);

  // Every definition was consumed exactly once; a third identical GET is no longer mocked.
  expect(nock.isDone()).toBe(true);
  expect(await missed(call('GET', '/repos/o/r/issues?state=open&page=1'))).toBe(true);
});

test('a request matches on its JSON body and exact content-type', async () => {
  if (!nock.isActive()) nock.activate();
  nock.disableNetConnect();
  nock.define(toNockDefinitions(cassette, { origin: 'http://api.example.test', readBody: inlineBodyBytes }).slice(2, 3));
  expect(await missed(call('POST', '/repos/o/r/issues', { 'content-type': 'text/plain' }, '{"title":"t"}'))).toBe(true);
  expect(await missed(call('POST', '/repos/o/r/issues', { 'content-type': 'application/json' }, '{"title":"other"}'))).toBe(true);
  const answered = await call('POST', '/repos/o/r/issues', { 'content-type': 'application/json' }, '{ "title": "t" }');
  expect(answered.status).toBe(201); // the body matches as JSON, not bytes
});

test('a request body kept only as its digest exports as no body matcher in nock and as a comment in HAR', () => {
  const upload: Interaction = {
    seq: 1,
    request: {
      method: 'PUT',
      url: '/upload',
      headers: [['content-type', 'text/plain']],
      body: { sha256: 'a'.repeat(64), size: 3_000_000 },
    },
    response: { status: 204, headers: [] },
  };
  const one: Cassette = { ...cassette, interactions: [upload] };
  const [definition] = toNockDefinitions(one, { origin: 'http://api.example.test', readBody: inlineBodyBytes });
  expect(definition).not.toHaveProperty('body');
  expect(definition).toMatchObject({ method: 'PUT', path: '/upload', status: 204 });
  const { request } = toHar(one, { readBody: inlineBodyBytes }).log.entries[0];
  expect(request).not.toHaveProperty('postData');
  expect(request.bodySize).toBe(3_000_000);
  expect(request.comment).toBe(`body of 3000000 bytes not kept by the recording (sha256 ${'a'.repeat(64)})`);
});
