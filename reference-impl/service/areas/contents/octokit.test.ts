// @octokit/rest against the contents area: blobs, contents, README, archive, and files written and deleted, as a user calls them.
import { expect, test } from '../../octokit.fixture.js';

const widgets = { owner: 'octo-org', repo: 'widgets' };

test('createBlob then getBlob round-trips the bytes; an empty repository is a RequestError 409', async ({ octokit }) => {
  const client = octokit('repo-writer');
  const created = await client.rest.git.createBlob({
    ...widgets,
    content: Buffer.from([0, 1, 2, 255]).toString('base64'),
    encoding: 'base64',
  });
  expect(created.status).toBe(201);
  const blob = await client.rest.git.getBlob({ ...widgets, file_sha: created.data.sha });
  expect(blob.data.encoding).toBe('base64');
  expect([...Buffer.from(blob.data.content, 'base64')]).toEqual([0, 1, 2, 255]);
  const admin = octokit('repo-admin');
  await expect(admin.rest.git.createBlob({ owner: 'octo-org', repo: 'empty', content: 'x' })).rejects.toMatchObject({ status: 409 });
});

test('getContent reads a file, a directory listing, and the raw bytes with its raw media type', async ({ octokit }) => {
  const client = octokit('anonymous');
  const file = await client.rest.repos.getContent({ ...widgets, path: 'docs/guide.md' });
  expect(Array.isArray(file.data) ? 'listing' : file.data.type).toBe('file');
  if (!Array.isArray(file.data) && file.data.type === 'file')
    expect(Buffer.from(file.data.content, 'base64').toString()).toBe('## Guide\n\nHold the widget level.\n');
  const listing = await client.rest.repos.getContent({ ...widgets, path: 'docs', ref: 'v1.0' });
  expect(Array.isArray(listing.data) && listing.data.map((entry) => entry.name)).toEqual(['README.md', 'guide.md']);
  const raw = await client.rest.repos.getContent({ ...widgets, path: 'src/widget.ts', mediaType: { format: 'raw' } });
  // The raw representation is bytes (application/vnd.service.raw): Octokit hands them over as an ArrayBuffer.
  expect(Buffer.from(raw.data as unknown as ArrayBuffer).toString()).toBe("export const widget = () => 'steady';\n");
});

test('getReadme and getReadmeInDirectory return the Content entry; the html media type the rendering', async ({ octokit }) => {
  const client = octokit('repo-reader');
  const root = await client.rest.repos.getReadme(widgets);
  expect(root.data.path).toBe('README.md');
  expect(Buffer.from(root.data.content, 'base64').toString()).toContain('## Build');
  const docs = await client.rest.repos.getReadmeInDirectory({ ...widgets, dir: 'docs' });
  expect(docs.data.path).toBe('docs/README.md');
  const html = await client.rest.repos.getReadme({ ...widgets, mediaType: { format: 'html' } });
  expect(String(html.data)).toContain('<h1>Widgets</h1>');
});

test('downloadTarballArchive follows the redirect to a real tar.gz', async ({ octokit }) => {
  const archive = await octokit('anonymous').rest.repos.downloadTarballArchive({ ...widgets, ref: 'main' });
  expect(archive.status).toBe(200);
  const bytes = Buffer.from(archive.data as ArrayBuffer);
  expect([...bytes.subarray(0, 2)]).toEqual([0x1f, 0x8b]);
});

test('createOrUpdateFileContents creates then updates with the sha, deleteFile removes; a stale sha is a RequestError 409', async ({
  octokit,
}) => {
  const client = octokit('repo-writer');
  const path = 'notes/octokit.md';
  const created = await client.rest.repos.createOrUpdateFileContents({
    ...widgets,
    path,
    message: 'Add a note',
    content: Buffer.from('first\n').toString('base64'),
    committer: { name: 'Mona Lisa', email: 'mona@example.com' },
  });
  expect(created.status).toBe(201);
  expect(created.data.commit.author?.name).toBe('Mona Lisa');
  const sha = created.data.content!.sha!;
  const updated = await client.rest.repos.createOrUpdateFileContents({
    ...widgets,
    path,
    message: 'Change the note',
    content: Buffer.from('second\n').toString('base64'),
    sha,
  });
  expect(updated.status).toBe(200);
  expect(updated.data.commit.parents?.[0].sha).toBe(created.data.commit.sha);
  await expect(
    client.rest.repos.createOrUpdateFileContents({ ...widgets, path, message: 'stale', content: 'eA==', sha }),
  ).rejects.toMatchObject({ status: 409 });
  const deleted = await client.rest.repos.deleteFile({ ...widgets, path, message: 'Drop the note', sha: updated.data.content!.sha! });
  expect(deleted.data.content).toBeNull();
  await expect(client.rest.repos.getContent({ ...widgets, path })).rejects.toMatchObject({ status: 404 });
});
