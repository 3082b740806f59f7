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
