import { bodyTag } from './etag.js';
import { expect, test } from './service.fixture.js';

const ASSIGNEES = '/repos/octo-org/widgets/assignees';
const LIMITS = '/repos/octo-org/widgets/interaction-limits';

test('a 200 GET carries a strong, stable ETag', async ({ api }) => {
  const first = await api.get(ASSIGNEES);
  const second = await api.get(ASSIGNEES);
  expect(first.headers.etag).toMatch(/^"[0-9a-f]+"$/);
  expect(second.headers.etag).toBe(first.headers.etag);
});

test('If-None-Match with the tag: 304, no body, same ETag', async ({ api }) => {
  const { etag } = (await api.get(ASSIGNEES)).headers;
  for (const header of [String(etag), `W/${String(etag)}`, `"other", ${String(etag)}`, '*']) {
    const response = await api.get(ASSIGNEES, { headers: { 'if-none-match': header } });
    expect(response.statusCode, header).toBe(304);
    expect(response.body).toBe('');
    expect(response.headers.etag).toBe(etag);
  }
});

test('If-None-Match with another tag: 200 with the body', async ({ api }) => {
  const response = await api.get(ASSIGNEES, { headers: { 'if-none-match': '"not-it"' } });
  expect(response.statusCode).toBe(200);
  expect(response.json()).toHaveLength(4);
});

test('the tag leaves out the origin: the same state reached at two addresses has one tag (and the links differ)', async ({ api }) => {
  const at = (host: string) => api.get(ASSIGNEES, { headers: { host } });
  const [one, other, oneAgain] = [await at('one.example.test'), await at('other.example.test:8080'), await at('one.example.test')];
  expect(one.body).toContain('http://one.example.test/users/');
  expect(other.body).toContain('http://other.example.test:8080/users/');
  expect(other.headers.etag).toBe(one.headers.etag);
  expect(oneAgain.headers.etag).toBe(one.headers.etag);
});

test('the tag changes when the representation changes', async ({ api }) => {
  const before = await api.get(LIMITS, { as: 'repo-admin' });
  await api.call('PUT', LIMITS, { as: 'repo-admin', body: { limit: 'existing_users' } });
  const after = await api.get(LIMITS, { as: 'repo-admin', headers: { 'if-none-match': String(before.headers.etag) } });
  expect(after.statusCode).toBe(200);
  expect(after.headers.etag).not.toBe(before.headers.etag);
});

test('no ETag on writes, 204s or errors', async ({ api }) => {
  const put = await api.call('PUT', LIMITS, { as: 'repo-admin', body: { limit: 'existing_users' } });
  expect(put.statusCode).toBe(200);
  expect(put.headers.etag).toBeUndefined();
  expect((await api.get(`${ASSIGNEES}/hubot`)).headers.etag).toBeUndefined();
  expect((await api.get('/nothing')).headers.etag).toBeUndefined();
});

test('an If-None-Match does not turn an error into a 304', async ({ api }) => {
  const response = await api.get('/repos/octo-org/vault/assignees', { headers: { 'if-none-match': '*' } });
  expect(response.statusCode).toBe(404);
});

test('bytes are tagged as they are: bodies that differ only in bytes that are not UTF-8 get different tags', () => {
  const origin = 'http://127.0.0.1:1';
  const [a, b] = [Buffer.from([0x50, 0x4b, 0xff, 0x00]), Buffer.from([0x50, 0x4b, 0xfe, 0x00])];
  expect(a.toString()).toBe(b.toString()); // the same text once decoded
  expect(bodyTag(a, origin)).not.toBe(bodyTag(b, origin));
  expect(bodyTag(a, origin)).toBe(bodyTag(Buffer.from(a), origin));
});

test('a remembered tag is given only for the very same body at the same origin', () => {
  const origin = 'http://127.0.0.1:1';
  const body = `{"url":"${origin}/users/a","n":1}`;
  const sameLength = `{"url":"${origin}/users/b","n":1}`;
  const tag = bodyTag(body, origin);
  expect(bodyTag(sameLength, origin)).not.toBe(tag); // one length, another body
  expect(bodyTag(body, origin)).toBe(tag);
  // The same text reached at another origin keeps this origin's URL in what is hashed.
  expect(bodyTag(body, 'http://127.0.0.1:2')).not.toBe(tag);
  expect(bodyTag(body.replaceAll(origin, 'http://127.0.0.1:2'), 'http://127.0.0.1:2')).toBe(tag);
});
