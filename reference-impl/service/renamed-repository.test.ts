// A renamed repository: its former name (octo-org/gadgets, now octo-org/widgets) answers with
// a redirect to the same URL under the current name, 302 for reads and 307 for writes, to
// callers who may see it; to anyone else it is as unknown as any name.
import { readFileSync } from 'node:fs';
import { createReferenceService } from './service.js';
import { expect, expectErrorBody, test } from './service.fixture.js';
import { DEFAULT_WORLD_PATH, parseWorld } from './world-loader.js';

test('a read of the former name is 302 to the same path and query under the current name; following it serves', async ({ api }) => {
  const moved = await api.get('/repos/octo-org/gadgets/contents/docs/guide.md?ref=v1.0');
  const location = 'http://localhost/repos/octo-org/widgets/contents/docs/guide.md?ref=v1.0';
  expect(expectErrorBody(moved, 302)).toMatchObject({ url: location, message: 'Moved: this repository is now octo-org/widgets' });
  expect(moved.headers.location).toBe(location);
  const followed = await api.get(new URL(location).pathname + new URL(location).search);
  expect(followed.json()).toMatchObject({ path: 'docs/guide.md' });
  // Names are case-insensitive, the former ones too.
  expect((await api.get('/repos/Octo-Org/GADGETS/readme')).headers.location).toBe('http://localhost/repos/octo-org/widgets/readme');
});

test('a write to the former name is 307 (method and body kept); a name nobody had is 404', async ({ api }) => {
  const body = { message: 'm', content: 'eA==' };
  const moved = await api.call('PUT', '/repos/octo-org/gadgets/contents/x.md', { as: 'repo-writer', body });
  expect(moved.statusCode).toBe(307);
  expect(moved.headers.location).toBe('http://localhost/repos/octo-org/widgets/contents/x.md');
  expect((await api.get('/repos/octo-org/gizmos/contents/README.md')).statusCode).toBe(404);
});

test("a private repository's former name stays unknown (404) to callers who cannot see it", async () => {
  const text = readFileSync(DEFAULT_WORLD_PATH, 'utf8').replace('    name: vault\n', '    name: vault\n    former_names: [safe]\n');
  const service = createReferenceService({ world: parseWorld(text, 'renamed.yaml') });
  try {
    const get = (token?: string) =>
      service.app.inject({
        method: 'GET',
        url: '/repos/octo-org/safe/contents/KEYS.md',
        headers: { 'user-agent': 't', ...(token && { authorization: `Bearer ${token}` }) },
      });
    expect((await get()).statusCode).toBe(404);
    expect((await get('ts_classic_outsider_0006')).statusCode).toBe(404);
    const reader = await get('ts_classic_reader_0005');
    expect(reader.statusCode).toBe(302);
    expect(reader.headers.location).toBe('http://localhost/repos/octo-org/vault/contents/KEYS.md');
  } finally {
    await service.close();
  }
});
