// The request a case's declaration turns into: default headers, the role's token (and
// only to the target), path parameters encoded, query, bodies, and URLs from redirects.
import { expect, test } from '@playwright/test';
import { HarnessError } from '../core/errors.js';
import { createTargetClient, expandPath } from './target-client.js';
import type { WireRequest } from './transport.js';

function client() {
  const sent: WireRequest[] = [];
  const target = createTargetClient({
    baseUrl: 'http://127.0.0.1:9/api/',
    tokens: { admin: 'tok-1' },
    transport: async (request) => {
      sent.push(request);
      return { status: 200, headers: [], body: Buffer.alloc(0) };
    },
    userAgent: 'ua',
  });
  return { target, sent };
}
const header = (request: WireRequest, name: string) => request.headers.find(([k]) => k.toLowerCase() === name)?.[1];

test('path parameters are URL-encoded, so a slash in a value cannot reach another route', () => {
  expect(expandPath('/repos/{owner}/{repo}/environments/{name}', { owner: 'o', repo: 'r', name: 'prod/eu 1' })).toBe(
    '/repos/o/r/environments/prod%2Feu%201',
  );
  expect(() => expandPath('/repos/{owner}', {})).toThrow(/no value for \{owner\}/);
});

test('a role sends its bearer token with the default headers; $TOKEN and null header overrides apply; anonymous sends none', async () => {
  const { target, sent } = client();
  await target.send(
    { method: 'GET', path: '/x/{id}', params: { id: '7' }, query: { per_page: 2 }, headers: { 'X-Echo': '$TOKEN', Accept: null } },
    'admin',
  );
  expect(sent[0].url).toBe('http://127.0.0.1:9/api/x/7?per_page=2');
  expect(header(sent[0], 'authorization')).toBe('Bearer tok-1');
  expect(header(sent[0], 'x-echo')).toBe('tok-1');
  expect(header(sent[0], 'accept')).toBeUndefined();
  expect(header(sent[0], 'x-service-api-version')).toBe('2022-11-28');
  await target.send({ method: 'GET', path: '/x' }, 'anonymous');
  expect(header(sent[1], 'authorization')).toBeUndefined();
  await expect(target.send({ method: 'GET', path: '/x' }, 'nobody')).rejects.toThrow(HarnessError);
});

test('bodies: JSON, raw text as-is, and padding to an exact size', async () => {
  const { target, sent } = client();
  await target.send({ method: 'POST', path: '/x', body: { a: 1 }, pad_to_bytes: 1000 }, 'admin');
  expect(sent[0].body?.length).toBe(1000);
  expect(JSON.parse(String(sent[0].body)).a).toBe(1);
  await target.send({ method: 'POST', path: '/x', raw: '{"a":' }, 'admin');
  expect(String(sent[1].body)).toBe('{"a":');
  expect(header(sent[1], 'content-type')).toBe('application/json');
});

test('a url resolves against the target; the token goes along on its origin only', async () => {
  const { target, sent } = client();
  await target.send({ method: 'GET', url: '/downloads/1?sig=a' }, 'admin');
  await target.send({ method: 'GET', url: 'http://127.0.0.1:9/api/x' }, 'admin');
  await target.send({ method: 'GET', url: 'http://127.0.0.2:9/blob?sig=b' }, 'admin');
  expect(sent.map((r) => [r.url, header(r, 'authorization')])).toEqual([
    ['http://127.0.0.1:9/downloads/1?sig=a', 'Bearer tok-1'],
    ['http://127.0.0.1:9/api/x', 'Bearer tok-1'],
    ['http://127.0.0.2:9/blob?sig=b', undefined],
  ]);
  await expect(target.send({ method: 'GET', url: 'http://[bad' }, 'admin')).rejects.toThrow(/not a URL/);
});
