import { createReferenceService } from './service.js';
import { loadWorld } from './world-loader.js';
import { expect, expectErrorBody, test } from './service.fixture.js';

// Pagination through GET /repos/octo-org/crowd/assignees: 107 assignable users
// (hubot, monalisa, dev-001 … dev-105), ordered by id.

const CROWD = '/repos/octo-org/crowd/assignees';
const ORIGIN = 'http://localhost';

function parseLink(header: string | string[] | undefined): Record<string, URL> {
  expect(typeof header).toBe('string');
  const rels: Record<string, URL> = {};
  for (const part of String(header).split(', ')) {
    const match = /^<([^>]+)>; rel="(first|prev|next|last)"$/.exec(part);
    expect(match, part).not.toBeNull();
    rels[match![2]] = new URL(match![1]);
  }
  return rels;
}

test('default page size is 30; page 1 links next and last only', async ({ api }) => {
  const response = await api.get(CROWD);
  expect(response.statusCode).toBe(200);
  const users = response.json();
  expect(users).toHaveLength(30);
  expect(users[0].login).toBe('hubot');
  expect(users[29].login).toBe('dev-028');
  const link = parseLink(response.headers.link);
  expect(Object.keys(link)).toEqual(['next', 'last']);
  expect(link.next.href).toBe(`${ORIGIN}${CROWD}?page=2`);
  expect(link.last.href).toBe(`${ORIGIN}${CROWD}?page=4`);
});

test('a middle page links first, prev, next, last in that order, with per_page repeated', async ({ api }) => {
  const response = await api.get(`${CROWD}?per_page=20&page=3`);
  expect(response.json().map((u: { login: string }) => u.login)[0]).toBe('dev-039');
  const raw = String(response.headers.link);
  expect(raw).toBe(
    [
      `<${ORIGIN}${CROWD}?per_page=20&page=1>; rel="first"`,
      `<${ORIGIN}${CROWD}?per_page=20&page=2>; rel="prev"`,
      `<${ORIGIN}${CROWD}?per_page=20&page=4>; rel="next"`,
      `<${ORIGIN}${CROWD}?per_page=20&page=6>; rel="last"`,
    ].join(', '),
  );
});

test('the last page links first and prev only and holds the remainder', async ({ api }) => {
  const response = await api.get(`${CROWD}?page=4`);
  expect(response.json()).toHaveLength(17);
  expect(Object.keys(parseLink(response.headers.link))).toEqual(['first', 'prev']);
});

test('per_page=100 is the maximum: two pages', async ({ api }) => {
  const response = await api.get(`${CROWD}?per_page=100`);
  expect(response.json()).toHaveLength(100);
  expect(parseLink(response.headers.link).last.searchParams.get('page')).toBe('2');
  expect((await api.get(`${CROWD}?per_page=100&page=2`)).json()).toHaveLength(7);
});

test('per_page above 100 is clamped to 100, and the link repeats the chosen 100', async ({ api }) => {
  const response = await api.get(`${CROWD}?per_page=500`);
  expect(response.statusCode).toBe(200);
  expect(response.json()).toHaveLength(100);
  const link = parseLink(response.headers.link);
  expect(link.next.searchParams.get('per_page')).toBe('100');
  expect(link.last.searchParams.get('page')).toBe('2');
});

test('link URLs keep the other query parameters and are absolute on the request origin', async ({ api }) => {
  const response = await api.get(`${CROWD}?sort=x&per_page=50&flag`, {
    headers: { host: 'service.test:9000', 'x-forwarded-proto': 'https' },
  });
  const link = parseLink(response.headers.link);
  expect(link.next.origin).toBe('https://service.test:9000');
  expect(link.next.pathname).toBe(CROWD);
  expect([...link.next.searchParams.keys()]).toEqual(['sort', 'per_page', 'flag', 'page']);
  expect(link.next.searchParams.get('sort')).toBe('x');
});

test('a Host that is no address (port 99999) gives links on localhost, with the scheme the client used; a default port is dropped', async ({
  api,
}) => {
  const origin = async (host: string, proto = 'http') =>
    parseLink((await api.get(`${CROWD}?per_page=50`, { headers: { host, 'x-forwarded-proto': proto } })).headers.link).next.origin;
  expect(await origin('service.test:99999', 'https')).toBe('https://localhost');
  expect(await origin('service.test:99999')).toBe('http://localhost');
  expect(await origin('service.test:443', 'https')).toBe('https://service.test');
  expect(await origin('service.test:80')).toBe('http://service.test');
});

test('behind a proxy, links are on the host the client reached (X-Forwarded-Host, as the nearest proxy gives it); a malformed one is ignored', async ({
  api,
}) => {
  const forwarded = await api.get(`${CROWD}?per_page=50`, {
    headers: { host: 'internal:3000', 'x-forwarded-host': 'client-said.test, proxy.test:8080' },
  });
  expect(parseLink(forwarded.headers.link).next.origin).toBe('http://proxy.test:8080');
  const malformed = await api.get(`${CROWD}?per_page=50`, { headers: { host: 'internal:3000', 'x-forwarded-host': 'evil.test/path' } });
  expect(parseLink(malformed.headers.link).next.origin).toBe('http://internal:3000');
});

test('X-Forwarded-Proto and X-Forwarded-Host count only from a trusted proxy (this machine by default): from anyone else they are ignored', async ({
  service,
}) => {
  const links = async (remoteAddress: string) => {
    const response = await service.app.inject({
      method: 'GET',
      url: `${CROWD}?per_page=50`,
      remoteAddress,
      headers: {
        host: 'internal:3000',
        'user-agent': 'test',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'attacker.test',
      },
    });
    return parseLink(response.headers.link as string).next.origin;
  };
  expect(await links('127.0.0.1')).toBe('https://attacker.test');
  expect(await links('203.0.113.7')).toBe('http://internal:3000');
  const behind = createReferenceService({ world: loadWorld(), trustProxy: ['203.0.113.0/24'] });
  try {
    const response = await behind.app.inject({
      method: 'GET',
      url: `${CROWD}?per_page=50`,
      remoteAddress: '203.0.113.7',
      headers: { host: 'internal:3000', 'user-agent': 'test', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'public.test' },
    });
    expect(parseLink(response.headers.link as string).next.origin).toBe('https://public.test');
  } finally {
    await behind.close();
  }
});

test('walking next links visits every assignee once, in id order', async ({ api }) => {
  const seen: number[] = [];
  let url: string | undefined = `${CROWD}?per_page=25`;
  while (url !== undefined) {
    const response = await api.get(url);
    seen.push(...response.json().map((user: { id: number }) => user.id));
    const next: URL | undefined = response.headers.link ? parseLink(response.headers.link).next : undefined;
    url = next ? next.pathname + next.search : undefined;
  }
  expect(seen).toHaveLength(107);
  expect([...seen].sort((a, b) => a - b)).toEqual(seen);
  expect(new Set(seen).size).toBe(107);
});

test('no link header when everything fits on one page', async ({ api }) => {
  const small = await api.get('/repos/octo-org/widgets/assignees?per_page=4');
  expect(small.json()).toHaveLength(4);
  expect(small.headers.link).toBeUndefined();
  const all = await api.get(`${CROWD}?per_page=100&page=1`);
  expect(all.headers.link).toBeDefined();
});

test('a page past the end: 200, an empty list, link with first, prev and last', async ({ api }) => {
  const response = await api.get(`${CROWD}?page=9`);
  expect(response.statusCode).toBe(200);
  expect(response.json()).toEqual([]);
  const link = parseLink(response.headers.link);
  expect(Object.keys(link)).toEqual(['first', 'prev', 'last']);
  expect(link.prev.searchParams.get('page')).toBe('8');
  expect(link.last.searchParams.get('page')).toBe('4');
});

for (const value of ['abc', '0', '-1', '1.5', '', '+3', '0x10', '99999999999999999999']) {
  test(`per_page=${JSON.stringify(value)}: 422 naming per_page`, async ({ api }) => {
    const error = expectErrorBody(await api.get(`${CROWD}?per_page=${encodeURIComponent(value)}`), 422, 'Validation Failed');
    expect(error.errors).toEqual([{ resource: 'Search', field: 'per_page', code: 'invalid' }]);
  });
}

for (const value of ['abc', '0', '-2', '2.0']) {
  test(`page=${JSON.stringify(value)}: 422 naming page`, async ({ api }) => {
    const error = expectErrorBody(await api.get(`${CROWD}?page=${encodeURIComponent(value)}`), 422);
    expect(error.errors).toEqual([{ resource: 'Search', field: 'page', code: 'invalid' }]);
  });
}

test('a repeated per_page is not an integer: 422', async ({ api }) => {
  expectErrorBody(await api.get(`${CROWD}?per_page=10&per_page=20`), 422);
});

test('a private repository the caller cannot see is 404 before its query is looked at', async ({ api }) => {
  expectErrorBody(await api.get('/repos/octo-org/vault/assignees?per_page=abc'), 404);
});
