// Endpoints 10–14: the world's workflow artifacts, their zips, links and expiry.
import { createHash } from 'node:crypto';
import { unzipSync } from 'fflate';
import { expect, expectErrorBody, test } from '../../service.fixture.js';

const ARTIFACTS = '/repos/octo-org/widgets/actions/artifacts';

test('list: newest first, total_count of the filtered list, name exact, pages of 30 by default and at most 100', async ({ api }) => {
  const all = (await api.get(ARTIFACTS)).json();
  expect(all.total_count).toBe(109);
  expect(all.artifacts).toHaveLength(30);
  expect(all.artifacts[0].id).toBe(61105);
  expect((await api.get(`${ARTIFACTS}?per_page=500&page=2`)).json().artifacts).toHaveLength(9);
  const builds = (await api.get(`${ARTIFACTS}?name=build-output`)).json();
  expect(builds.artifacts.map((a: { id: number }) => a.id)).toEqual([60001, 60003]);
  expect((await api.get(`${ARTIFACTS}?name=Build-Output`)).json().total_count).toBe(0);
  expect((await api.get('/repos/octo-org/widgets/actions/runs/50001/artifacts')).json().artifacts.map((a: { id: number }) => a.id)).toEqual(
    [60002, 60001],
  );
  expectErrorBody(await api.get('/repos/octo-org/widgets/actions/runs/1/artifacts'), 404);
});

test('download: 302 to a link serving once, within a minute, a zip of the files whose size and sha256 the artifact gives', async ({
  api,
}) => {
  const artifact = (await api.get(`${ARTIFACTS}/60001`)).json();
  const redirect = await api.get(`${ARTIFACTS}/60001/zip`, { as: 'repo-reader' });
  expect(redirect.statusCode).toBe(302);
  const link = new URL(redirect.headers.location as string).pathname;
  const zip = (await api.get(link)).rawPayload;
  expect(zip.length).toBe(artifact.size_in_bytes);
  expect(`sha256:${createHash('sha256').update(zip).digest('hex')}`).toBe(artifact.digest);
  const files = unzipSync(new Uint8Array(zip));
  expect(Object.keys(files).sort()).toEqual(['dist/README.txt', 'dist/widget.js']);
  expect(Buffer.from(files['dist/README.txt']).toString()).toBe('Built from main.\n');
  expect((await api.get(link)).statusCode).toBe(404);
  const late = new URL((await api.get(`${ARTIFACTS}/60001/zip`, { as: 'repo-reader' })).headers.location as string).pathname;
  await api.advance(61);
  expect((await api.get(late)).statusCode).toBe(404);
  expect((await api.get(`${ARTIFACTS}/60001/zip`)).statusCode).toBe(401);
  expect((await api.get(`${ARTIFACTS}/60001/tar.gz`, { as: 'repo-reader' })).statusCode).toBe(404);
});

test('expiry on the clock: an artifact past retention is expired, its download 410; delete is 204 then 404, until a reset', async ({
  api,
}) => {
  expect((await api.get(`${ARTIFACTS}/60004`)).json()).toMatchObject({ expired: true, expires_at: '2026-05-01T10:00:00Z' });
  expectErrorBody(await api.get(`${ARTIFACTS}/60004/zip`, { as: 'repo-reader' }), 410, 'Artifact has expired');
  // 60001 was made on 2026-05-30 and is kept 90 days: expires at 2026-08-28T10:00:00Z, expired a second later.
  await api.advance(87 * 86400 + 22 * 3600);
  expect((await api.get(`${ARTIFACTS}/60001`)).json().expired).toBe(false);
  await api.advance(1);
  expect((await api.get(`${ARTIFACTS}/60001`)).json().expired).toBe(true);
  expect((await api.call('DELETE', `${ARTIFACTS}/60002`, { as: 'repo-writer' })).statusCode).toBe(204);
  expect((await api.get(`${ARTIFACTS}/60002`)).statusCode).toBe(404);
  expect((await api.call('DELETE', `${ARTIFACTS}/60002`, { as: 'repo-writer' })).statusCode).toBe(404);
  await api.call('POST', '/_conformance/reset', { headers: { 'user-agent': 't' } });
  expect((await api.get(`${ARTIFACTS}/60002`)).statusCode).toBe(200);
});

test('a download answers 302 with no body, never the zip itself', async ({ api }) => {
  const redirect = await api.get(`${ARTIFACTS}/60001/zip`, { as: 'repo-reader' });
  expect(redirect.statusCode).toBe(302);
  expect(redirect.rawPayload.length).toBe(0);
});

test('reading with a fine-grained token needs Actions (read), on a public repository as on a private one', async ({ api }) => {
  expect((await api.get(`${ARTIFACTS}/60001`, { as: 'fine-grained-metadata-only' })).statusCode).toBe(403);
  expect((await api.get('/repos/octo-org/vault/actions/artifacts', { as: 'fine-grained-contents-reader' })).statusCode).toBe(403);
  expect((await api.get('/repos/octo-org/vault/actions/artifacts', { as: 'repo-reader' })).statusCode).toBe(200);
});

// Variations: other readings of what the spec leaves open (suites/variants/artifacts.yaml).
// Each is off by default (the tests above) and switched on here through the control API.
const bare = { headers: { 'user-agent': undefined, accept: undefined, 'x-service-api-version': undefined } };

test.describe('variations', () => {
  test("artifacts.size-uncompressed: size_in_bytes is the files' total length (38 + 17), the zip is unchanged", async ({ api }) => {
    const zipLength = (await api.get(`${ARTIFACTS}/60001`)).json().size_in_bytes;
    await api.vary('artifacts.size-uncompressed');
    expect((await api.get(`${ARTIFACTS}/60001`)).json().size_in_bytes).toBe(55);
    const link = new URL((await api.get(`${ARTIFACTS}/60001/zip`, { as: 'repo-reader' })).headers.location as string).pathname;
    expect((await api.get(link)).rawPayload.length).toBe(zipLength);
  });

  test('artifacts.digest-of-uploaded-files: digest is sha256 of each path and content in path order, not of the zip', async ({ api }) => {
    const ofZip = (await api.get(`${ARTIFACTS}/60001`)).json().digest;
    await api.vary('artifacts.digest-of-uploaded-files');
    const manifest = Buffer.from("dist/README.txt\0Built from main.\n\0dist/widget.js\0export const widget = () => 'steady';\n\0");
    const digest = (await api.get(`${ARTIFACTS}/60001`)).json().digest;
    expect(digest).toBe(`sha256:${createHash('sha256').update(manifest).digest('hex')}`);
    expect(digest).not.toBe(ofZip);
  });

  test('artifacts.deleted-gone-410: a deleted artifact answers 410 on GET, DELETE and download; an unknown one still 404', async ({
    api,
  }) => {
    await api.vary('artifacts.deleted-gone-410');
    expect((await api.call('DELETE', `${ARTIFACTS}/60002`, { as: 'repo-writer' })).statusCode).toBe(204);
    expectErrorBody(await api.get(`${ARTIFACTS}/60002`), 410);
    expectErrorBody(await api.call('DELETE', `${ARTIFACTS}/60002`, { as: 'repo-writer' }), 410);
    expectErrorBody(await api.get(`${ARTIFACTS}/60002/zip`, { as: 'repo-reader' }), 410);
    expect((await api.get(`${ARTIFACTS}?name=coverage`)).json().total_count).toBe(0);
    expectErrorBody(await api.get(`${ARTIFACTS}/99999`), 404);
    // The id is deleted in widgets only: another repository does not have it at all.
    expectErrorBody(await api.get('/repos/octo-org/crowd/actions/artifacts/60002'), 404);
  });

  test('artifacts.links-reusable: a download link serves every request within its minute, none after; off, it serves once', async ({
    api,
  }) => {
    const linkOf = async () =>
      new URL((await api.get(`${ARTIFACTS}/60002/zip`, { as: 'repo-reader' })).headers.location as string).pathname;
    const once = await linkOf();
    expect((await api.get(once, bare)).statusCode).toBe(200);
    expectErrorBody(await api.get(once, bare), 404);
    await api.vary('artifacts.links-reusable');
    const reusable = await linkOf();
    expect((await api.get(reusable, bare)).statusCode).toBe(200);
    expect((await api.get(reusable, bare)).statusCode).toBe(200);
    await api.advance(61);
    expectErrorBody(await api.get(reusable, bare), 404);
  });

  test('artifacts.public-read-without-actions: any token reads a public repository, a private one still needs Actions (read)', async ({
    api,
  }) => {
    await api.vary('artifacts.public-read-without-actions');
    expect((await api.get(`${ARTIFACTS}/60001`, { as: 'fine-grained-metadata-only' })).statusCode).toBe(200);
    expect((await api.get(ARTIFACTS, { as: 'fine-grained-contents-reader' })).statusCode).toBe(200);
    expectErrorBody(await api.get('/repos/octo-org/vault/actions/artifacts', { as: 'fine-grained-contents-reader' }), 403);
    expectErrorBody(await api.get('/repos/octo-org/vault/actions/artifacts/60101', { as: 'fine-grained-metadata-only' }), 403);
    expect((await api.get('/repos/octo-org/vault/actions/artifacts', { as: 'repo-reader' })).statusCode).toBe(200);
    // Downloads keep their own rule: Actions (read).
    expectErrorBody(await api.get(`${ARTIFACTS}/60001/zip`, { as: 'fine-grained-metadata-only' }), 403);
  });
});
