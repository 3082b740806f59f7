// Repository contents and Git data, endpoints 15–22 of spec document 1: for now the Git
// blobs (21, 22) over the repositories' real Git objects (git-state.ts, ../../git/).
//
// Decisions where the spec is silent (README "Git blobs"):
// - `encoding` is `utf-8` (the default) or `base64`; any other value is 422, and so is
//   `base64` content that is not Base64 (line breaks and spaces in it are ignored).
// - A repository with no commits answers 409 ("Git Repository is empty."), as real hosts do.
// - A `file_sha` that is not 40 hexadecimal digits is 422; a well-formed one the repository
//   does not hold as a blob is 404.
// - The raw representation is the blob's bytes, `Content-Type: application/vnd.service.raw`.
import { createHash } from 'node:crypto';
import { Type } from 'typebox';
import type { AreaModule } from '../../area.js';
import { onRepository, read, REPOSITORY_READ_SCOPES, REPOSITORY_WRITE_SCOPES, write } from '../../auth/endpoint-access.js';
import { defineEndpoint } from '../../endpoint.js';
import { ApiError, notFound, validationFailed } from '../../errors.js';
import { representerFor } from '../../representations.js';
import { blobUrl, representBlob } from './blob-representation.js';
import { createGitState, type RepositoryGit } from './git-state.js';

const BLOB_BODY = Type.Object(
  { content: Type.String(), encoding: Type.Optional(Type.Enum(['utf-8', 'base64'])) },
  { title: 'Blob', additionalProperties: false },
);

const CONTENTS_READ = onRepository({ anonymous: true, scopes: REPOSITORY_READ_SCOPES, permissions: [read('contents')], role: 'visible' });
const CONTENTS_WRITE = onRepository({ anonymous: false, scopes: REPOSITORY_WRITE_SCOPES, permissions: [write('contents')], role: 'push' });

/** Built-in faults of this area (suites/faults/contents.yaml says what each does and breaks). */
const CONTENTS_FAULTS = [
  'git.blob-sha-without-header',
  'git.blob-content-plain',
  'git.blob-raw-as-json',
  'git.blob-empty-repository-accepted',
  'git.blob-base64-unchecked',
  'git.blob-create-200',
  'git.blob-unknown-empty',
] as const;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const create: AreaModule<(typeof CONTENTS_FAULTS)[number]>['create'] = ({ directory, faults }) => {
  const git = createGitState(directory);
  const refuseEmpty = (state: RepositoryGit, fault?: 'git.blob-empty-repository-accepted') => {
    if (state.empty && !(fault && faults.on(fault))) throw new ApiError(409, 'CONFLICT', 'Git Repository is empty.');
  };

  const endpoints = [
    defineEndpoint({
      spec: { document: 1, number: 21 },
      id: 'git.create-blob',
      summary: 'Create a blob',
      method: 'POST',
      path: '/repos/:owner/:repo/git/blobs',
      access: CONTENTS_WRITE,
      body: BLOB_BODY,
      handler: async (request, reply, { repository }) => {
        const state = await git.of(repository);
        refuseEmpty(state, 'git.blob-empty-repository-accepted');
        const { content, encoding = 'utf-8' } = request.body;
        const compact = content.replace(/\s+/g, '');
        const valid = encoding === 'utf-8' || (compact.length % 4 === 0 && BASE64.test(compact)) || faults.on('git.blob-base64-unchecked');
        if (!valid) throw validationFailed([{ resource: 'Blob', field: 'content', code: 'invalid' }]);
        const bytes = encoding === 'utf-8' ? Buffer.from(content, 'utf8') : Buffer.from(compact, 'base64');
        const sha = await state.store.writeBlob(bytes);
        state.objects.add(sha);
        const shown = faults.on('git.blob-sha-without-header') ? createHash('sha1').update(bytes).digest('hex') : sha;
        reply.code(faults.on('git.blob-create-200') ? 200 : 201);
        return { url: blobUrl(representerFor(request, directory), repository, shown), sha: shown };
      },
    }),
    defineEndpoint({
      spec: { document: 1, number: 22 },
      id: 'git.get-blob',
      summary: 'Get a blob',
      method: 'GET',
      path: '/repos/:owner/:repo/git/blobs/:file_sha',
      access: CONTENTS_READ,
      representations: ['raw'],
      handler: async (request, reply, { repository }) => {
        const state = await git.of(repository);
        refuseEmpty(state);
        const sha = request.params.file_sha.toLowerCase();
        if (!/^[0-9a-f]{40}$/.test(sha)) throw validationFailed([{ resource: 'Blob', field: 'file_sha', code: 'invalid' }]);
        // The store holds every repository's objects; this one shows only its own.
        const held = state.objects.has(sha) && (await state.store.typeOf(sha)) === 'blob';
        if (!held && !faults.on('git.blob-unknown-empty')) throw notFound();
        const bytes = held ? await state.store.readBlob(sha) : new Uint8Array();
        if (request.representation === 'raw' && !faults.on('git.blob-raw-as-json')) {
          reply.header('content-type', 'application/vnd.service.raw');
          return Buffer.from(bytes);
        }
        return representBlob(representerFor(request, directory), faults, repository, sha, bytes);
      },
    }),
  ];
  return { name: 'contents', endpoints, reset: () => git.reset() };
};

export const contents = { name: 'contents', faults: CONTENTS_FAULTS, create } satisfies AreaModule;
