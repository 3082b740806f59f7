// The HAR export is proven by a real consumer. Playwright's
// routeFromHAR serves every request below from the exported file; nothing listens at the
// origin (`.invalid` never resolves), so any request that missed the HAR would fail.
import { writeFileSync } from 'node:fs';
import { expect, skipWithoutDebianChromium, test } from '../../test-support/debian-chromium.js';
import { inlineBodyBytes, toInlineBody } from './body-codec.js';
import type { Cassette } from './cassette-format.js';
import { toHar } from './har-export.js';

skipWithoutDebianChromium(test);

const inline = (bytes: Buffer | string) => toInlineBody(Buffer.from(bytes))!;
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe, 0x80]);

const cassette: Cassette = {
  cassetteVersion: 1,
  name: 'browser',
  recordedAt: '2026-03-04T05:06:07Z',
  redactions: [],
  interactions: [
    {
      seq: 1,
      request: { method: 'GET', url: '/', headers: [] },
      response: {
        status: 200,
        headers: [['content-type', 'text/html; charset=utf-8']],
        body: inline('<!doctype html><title>recorded page</title><p id="p">hello from the cassette</p>'),
      },
    },
    {
      seq: 2,
      request: { method: 'GET', url: '/repos/o/r?page=1', headers: [['accept', 'application/json']] },
      response: {
        status: 200,
        headers: [
          ['content-type', 'application/json'],
          ['x-total', '1'],
        ],
        body: inline('{"full_name":"o/r","stars":3}'),
      },
    },
    {
      seq: 3,
      request: { method: 'GET', url: '/avatar.png', headers: [] },
      response: { status: 200, headers: [['content-type', 'image/png']], body: inline(png) },
    },
    {
      seq: 4,
      request: { method: 'GET', url: '/missing', headers: [] },
      response: { status: 404, headers: [['content-type', 'application/json']], body: inline('{"message":"Not Found"}') },
    },
    {
      seq: 5,
      request: { method: 'POST', url: '/repos', headers: [['content-type', 'application/json']], body: inline('{"name":"new"}') },
      response: {
        status: 201,
        headers: [
          ['content-type', 'application/json'],
          ['content-encoding', 'gzip'],
        ],
        body: { ...inline('{"created":true}'), contentEncoding: 'gzip' },
      },
    },
  ],
};

test('routeFromHAR serves the exported interactions with no server running', async ({ debianChromium }) => {
  const harFile = test.info().outputPath('export.har');
  writeFileSync(harFile, JSON.stringify(toHar(cassette, { readBody: inlineBodyBytes })));
  const context = await debianChromium.newContext();
  try {
    const page = await context.newPage();
    await page.routeFromHAR(harFile, { notFound: 'abort' });
    const navigation = await page.goto('http://target.invalid/');
    expect(navigation?.status()).toBe(200);
    await expect(page.locator('#p')).toHaveText('hello from the cassette');
    const results = await page.evaluate(async () => {
      const json = await fetch('/repos/o/r?page=1', { headers: { accept: 'application/json' } });
      const avatar = await fetch('/avatar.png');
      const missing = await fetch('/missing');
      const created = await fetch('/repos', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"new"}' });
      const unrecorded = await fetch('/not-in-the-har').then(
        () => 'answered',
        () => 'aborted',
      );
      return {
        json: { status: json.status, total: json.headers.get('x-total'), body: await json.json() },
        avatar: { status: avatar.status, type: avatar.headers.get('content-type'), bytes: [...new Uint8Array(await avatar.arrayBuffer())] },
        missing: { status: missing.status, body: await missing.json() },
        created: { status: created.status, body: await created.json() },
        unrecorded,
      };
    });
    expect(results).toEqual({
      json: { status: 200, total: '1', body: { full_name: 'o/r', stars: 3 } },
      avatar: { status: 200, type: 'image/png', bytes: [...png] },
      missing: { status: 404, body: { message: 'Not Found' } },
      created: { status: 201, body: { created: true } },
      unrecorded: 'aborted',
    });
  } finally {
    await context.close();
  }
});
