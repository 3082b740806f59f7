// Sizes and counts at the limits of the contents and Git blob endpoints, on octo-org/assets,
// whose files the world declares by size and seed: 1 MiB and 100 MiB, each ± 1 byte, and a
// directory of 1,001 files. Plus its submodule hosted here.
import { createHash } from 'node:crypto';
import { generatedBytes } from '../../git/generated-bytes.js';
import { expect, test } from '../../service.fixture.js';

const CONTENTS = '/repos/octo-org/assets/contents';
const RAW = { accept: 'application/vnd.service.raw+json' };
const OBJECT = { accept: 'application/vnd.service.object+json' };
const HTML = { accept: 'application/vnd.service.html+json' };
const MiB = 1024 * 1024;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

// Building the repository writes 300 MiB of blobs once per process: one test per worker pays it.
test.describe.configure({ timeout: 120_000 });

test('up to 1 MiB every representation; over it raw and object only (object: content "" and encoding none), the rest 403', async ({
  api,
}) => {
  for (const [name, size] of [
    ['1mib-minus-1', MiB - 1],
    ['1mib', MiB],
  ] as const) {
    const file = await api.get(`${CONTENTS}/sizes/${name}.txt`);
    expect(file.statusCode, name).toBe(200);
    expect(file.json()).toMatchObject({ size, encoding: 'base64' });
    expect(sha256(Buffer.from(file.json().content, 'base64'))).toBe(sha256(generatedBytes(size, 1)));
    expect((await api.get(`${CONTENTS}/sizes/${name}.txt`, { headers: HTML })).statusCode).toBe(200);
  }
  const over = `${CONTENTS}/sizes/1mib-plus-1.txt`;
  expect((await api.get(over)).statusCode).toBe(403);
  expect((await api.get(over, { headers: HTML })).statusCode).toBe(403);
  expect((await api.get(over, { headers: OBJECT })).json()).toMatchObject({ type: 'file', size: MiB + 1, content: '', encoding: 'none' });
  const raw = await api.get(over, { headers: RAW });
  expect(raw.statusCode).toBe(200);
  expect(sha256(raw.rawPayload)).toBe(sha256(generatedBytes(MiB + 1, 1)));
});

test('up to 100 MiB raw and object; over it nothing, and a blob over it is refused too', async ({ api }) => {
  for (const size of [100 * MiB - 1, 100 * MiB]) {
    const name = size === 100 * MiB ? '100mib' : '100mib-minus-1';
    const object = await api.get(`${CONTENTS}/sizes/${name}.txt`, { headers: OBJECT });
    expect(object.json()).toMatchObject({ size, content: '', encoding: 'none' });
  }
  const raw = await api.get(`${CONTENTS}/sizes/100mib.txt`, { headers: RAW });
  expect(raw.rawPayload.length).toBe(100 * MiB);
  const huge = `${CONTENTS}/sizes/100mib-plus-1.txt`;
  for (const headers of [RAW, OBJECT, {}]) expect((await api.get(huge, { headers })).statusCode).toBe(403);
  // A listing still names it, with its size.
  const listing = (await api.get(`${CONTENTS}/sizes`)).json() as { path: string; size: number; sha: string }[];
  const entry = listing.find((e) => e.path === 'sizes/100mib-plus-1.txt')!;
  expect(entry.size).toBe(100 * MiB + 1);
  expect((await api.get(`/repos/octo-org/assets/git/blobs/${entry.sha}`, { headers: RAW })).statusCode).toBe(403);
  const largest = listing.find((e) => e.path === 'sizes/100mib.txt')!;
  expect((await api.get(`/repos/octo-org/assets/git/blobs/${largest.sha}`, { headers: RAW })).rawPayload.length).toBe(100 * MiB);
});

test('creating a blob: 100 MiB of content is accepted, one byte more is 422, a body over 150 MiB is 413', async ({ api }) => {
  const blobs = '/repos/octo-org/assets/git/blobs';
  const at = (size: number) => ({ content: generatedBytes(size, 9).toString('base64'), encoding: 'base64' });
  const created = await api.call('POST', blobs, { as: 'repo-admin', body: at(100 * MiB) });
  expect(created.statusCode).toBe(201);
  const over = await api.call('POST', blobs, { as: 'repo-admin', body: at(100 * MiB + 1) });
  expect(over.statusCode).toBe(422);
  expect(over.json().errors).toEqual([{ resource: 'Blob', field: 'content', code: 'custom', message: 'too_large' }]);
  const oversized = await api.call('POST', blobs, { as: 'repo-admin', raw: `{"content":"${'a'.repeat(150 * MiB)}"}` });
  expect(oversized.statusCode).toBe(413);
});

test('a directory of 1,001 files lists the first 1,000 in Git order; the last is still there', async ({ api }) => {
  const listing = (await api.get(`${CONTENTS}/many`)).json() as { name: string }[];
  expect(listing).toHaveLength(1000);
  expect(listing[0].name).toBe('item-0001.txt');
  expect(listing.at(-1)!.name).toBe('item-1000.txt');
  const last = await api.get(`${CONTENTS}/many/item-1001.txt`, { headers: RAW });
  expect(last.rawPayload.toString()).toBe('item 1001\n');
  expect((await api.get(`${CONTENTS}/many`, { headers: OBJECT })).json().entries).toHaveLength(1000);
});

test('a submodule hosted here links to its repository at the recorded commit', async ({ api }) => {
  const submodule = (await api.get(`${CONTENTS}/libs/widgets`)).json();
  const commit = submodule.sha;
  expect(submodule).toMatchObject({
    type: 'submodule',
    submodule_git_url: 'http://localhost/octo-org/widgets.git',
    git_url: `http://localhost/repos/octo-org/widgets/git/trees/${commit}`,
    html_url: `http://localhost/octo-org/widgets/tree/${commit}`,
    _links: { git: `http://localhost/repos/octo-org/widgets/git/trees/${commit}` },
  });
  // The recorded commit is one of widgets' own (its v1.0).
  const readme = await api.get(`/repos/octo-org/widgets/contents/README.md?ref=${commit}`, { headers: RAW });
  expect(readme.rawPayload.toString()).toBe('# Widgets\n\nWidgets that do not wobble.\n');
});

// Variations (suites/variants/contents.yaml) read on this repository, switched on through the control API.

test('contents.decimal-megabyte: 1 MB is 10^6 bytes and 100 MB 10^8, so the MiB files are over each limit', async ({ api }) => {
  const MB = 1000 * 1000;
  await api.vary('contents.decimal-megabyte');
  for (const name of ['1mib-minus-1', '1mib']) {
    expect((await api.get(`${CONTENTS}/sizes/${name}.txt`)).statusCode, name).toBe(403);
    expect((await api.get(`${CONTENTS}/sizes/${name}.txt`, { headers: OBJECT })).json(), name).toMatchObject({
      content: '',
      encoding: 'none',
    });
  }
  for (const name of ['100mib-minus-1', '100mib']) {
    expect((await api.get(`${CONTENTS}/sizes/${name}.txt`, { headers: OBJECT })).statusCode, name).toBe(403);
    expect((await api.get(`${CONTENTS}/sizes/${name}.txt`, { headers: RAW })).statusCode, name).toBe(403);
  }
  // A blob over 10^8 bytes is refused, and so is creating one.
  const listing = (await api.get(`${CONTENTS}/sizes`)).json() as { path: string; sha: string }[];
  const largest = listing.find((e) => e.path === 'sizes/100mib.txt')!;
  expect((await api.get(`/repos/octo-org/assets/git/blobs/${largest.sha}`, { headers: RAW })).statusCode).toBe(403);
  const blobs = '/repos/octo-org/assets/git/blobs';
  const at = (size: number) => ({ content: generatedBytes(size, 9).toString('base64'), encoding: 'base64' });
  expect((await api.call('POST', blobs, { as: 'repo-admin', body: at(100 * MB) })).statusCode).toBe(201);
  expect((await api.call('POST', blobs, { as: 'repo-admin', body: at(100 * MB + 1) })).statusCode).toBe(422);
  // A small file keeps every representation.
  expect((await api.get('/repos/octo-org/widgets/contents/README.md')).json().encoding).toBe('base64');
});

test('contents.size-refusal-codes: 406 for a representation a size lacks, 422 over the maximum, instead of 403', async ({ api }) => {
  await api.vary('contents.size-refusal-codes');
  expect((await api.get(`${CONTENTS}/sizes/1mib-plus-1.txt`)).statusCode).toBe(406);
  expect((await api.get(`${CONTENTS}/sizes/1mib-plus-1.txt`, { headers: HTML })).statusCode).toBe(406);
  expect((await api.get(`${CONTENTS}/sizes/1mib-plus-1.txt`, { headers: OBJECT })).statusCode).toBe(200);
  for (const headers of [RAW, OBJECT, {}]) expect((await api.get(`${CONTENTS}/sizes/100mib-plus-1.txt`, { headers })).statusCode).toBe(422);
  const listing = (await api.get(`${CONTENTS}/sizes`)).json() as { path: string; sha: string }[];
  const huge = listing.find((e) => e.path === 'sizes/100mib-plus-1.txt')!;
  expect((await api.get(`/repos/octo-org/assets/git/blobs/${huge.sha}`, { headers: RAW })).statusCode).toBe(422);
});

test('contents.submodule-url-as-recorded and contents.submodule-links-to-commit: the URL as .gitmodules has it; links to the commit', async ({
  api,
}) => {
  await api.vary('contents.submodule-url-as-recorded');
  const recorded = (await api.get(`${CONTENTS}/libs/widgets`)).json();
  expect(recorded.submodule_git_url).toBe('../widgets.git');
  expect(recorded.git_url).toBe(`http://localhost/repos/octo-org/widgets/git/trees/${recorded.sha}`);
  await api.vary('contents.submodule-links-to-commit');
  const linked = (await api.get(`${CONTENTS}/libs/widgets`)).json();
  expect(linked).toMatchObject({
    submodule_git_url: 'http://localhost/octo-org/widgets.git',
    git_url: `http://localhost/repos/octo-org/widgets/git/commits/${linked.sha}`,
    html_url: `http://localhost/octo-org/widgets/commit/${linked.sha}`,
    _links: { git: `http://localhost/repos/octo-org/widgets/git/commits/${linked.sha}` },
  });
});
