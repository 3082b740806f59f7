// Repository contents and Git data, endpoints 15–22 of spec document 1, over the
// repositories' real Git objects (git-state.ts, ../../git/): contents (15), README (18, 19),
// the tar archive (20) and Git blobs (21, 22) here; writing files (16, 17) in file-endpoints.ts.
//
// Decisions where the spec is silent (README "Git blobs"):
// - `encoding` is `utf-8` (the default) or `base64`; any other value is 422, and so is
//   `base64` content that is not Base64 (line breaks and spaces in it are ignored).
// - A repository with no commits answers 409 ("Git Repository is empty."), as real hosts do.
// - A `file_sha` that is not 40 hexadecimal digits is 422; a well-formed one the repository
//   does not hold as a blob is 404.
// - The raw representation is the blob's bytes, `Content-Type: application/vnd.service.raw`.
// - Sizes: "1 MB" and "100 MB" are 1 MiB and 100 MiB, as real hosts count them. A file or
//   blob over 100 MiB, or a file over 1 MiB asked for in the default or html media type, is
//   403 ("blocked content access"). A blob created with over 100 MiB of content is 422
//   (`custom`, `too_large`); its request body may hold up to 150 MiB (Base64 adds a third),
//   beyond which it is 413 like any body over its limit.
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AreaModule } from '../../area.js';
import { defineEndpoint } from '../../endpoint.js';
import { ApiError, notFound, validationFailed } from '../../errors.js';
import { queryValue } from '../../query.js';
import { representerFor } from '../../representations.js';
import type { WorldRepository } from '../../world-model.js';
import { blobUrl, decodeBase64, representBlob } from './blob-representation.js';
import { CONTENTS_READ, CONTENTS_WRITE, contentsPath } from './contents-access.js';
import { FULL_FEATURES_MAX_BYTES, representEntry } from './content-representation.js';
import { fileEndpoints } from './file-endpoints.js';
import { createGitState, isEmpty, type RepositoryGit } from './git-state.js';
import { readmeEntry, renderReadme } from './readme.js';
import { tarball } from './tarball.js';
import { describeEntries, linkTarget, locate, resolveRef, type Located } from './tree-reader.js';

const BLOB_BODY = Type.Object(
  { content: Type.String(), encoding: Type.Optional(Type.Enum(['utf-8', 'base64'])) },
  { title: 'Blob', additionalProperties: false },
);

/** Built-in faults of this area (suites/faults/contents.yaml says what each does and breaks). */
const CONTENTS_FAULTS = [
  'contents.content-plain',
  'contents.listing-as-object',
  'contents.ref-ignored',
  'contents.raw-ignored',
  'contents.object-ignored',
  'contents.symlink-not-followed',
  'contents.submodule-typed-submodule',
  'contents.sha-without-header',
  'contents.html-as-raw',
  'readme.subdirectory-ignored',
  'readme.html-as-raw',
  'readme.case-sensitive',
  'archive.private-link-never-expires',
  'archive.served-without-redirect',
  'archive.ref-ignored',
  'git.blob-sha-without-header',
  'git.blob-content-plain',
  'git.blob-raw-as-json',
  'git.blob-empty-repository-accepted',
  'git.blob-base64-unchecked',
  'git.blob-create-200',
  'git.blob-unknown-empty',
  'git.blob-huge-served',
  'contents.huge-served',
  'contents.large-content-inline',
  'contents.object-large-content',
  'contents.size-limit-exclusive',
  'contents.listing-unbounded',
  'contents.write-created-200',
  'contents.write-updated-201',
  'contents.write-sha-unchecked',
  'contents.write-branch-ignored',
  'contents.write-identity-unchecked',
  'contents.write-author-is-caller',
  'contents.write-concurrent-last-wins',
  'contents.write-parent-dropped',
  'contents.delete-kept',
] as const;

/** A blob's request body: room for 100 MiB of content in Base64 (4/3 of it) and the JSON around it. */
const BLOB_BODY_LIMIT_BYTES = 150 * 1024 * 1024;

/** Archive links: five minutes for private repositories (spec 1, Limits); an hour for public ones (a documented choice). */
const PRIVATE_ARCHIVE_TTL_MS = 5 * 60 * 1000;
const PUBLIC_ARCHIVE_TTL_MS = 60 * 60 * 1000;

/** The raw representation: the bytes themselves. */
function raw(reply: FastifyReply, bytes: Uint8Array): Buffer {
  reply.header('content-type', 'application/vnd.service.raw');
  return Buffer.from(bytes);
}

/** The html representation of a file: Markdown rendered, anything else escaped (readme.ts). */
async function html(reply: FastifyReply, file: Extract<Located, { kind: 'file' }>): Promise<string> {
  reply.header('content-type', 'text/html; charset=utf-8');
  return renderReadme(file.path, Buffer.from(await file.bytes()).toString('utf8'));
}

/** Files and blobs over this size are not served at all (spec 1, rule 5 and the Git blobs section): 100 MiB. */
const MAX_CONTENT_BYTES = 100 * 1024 * 1024;

/** 403, "blocked content access" in the spec's errors table. */
const tooLarge = (what: string, size: number, served: string) =>
  new ApiError(403, 'FORBIDDEN', `${what} has ${size} bytes: this API serves ${served}.`);

/** A directory lists at most this many entries (spec 1, rule 4 of the contents endpoints). */
const LISTING_MAX = 1000;

const create: AreaModule<(typeof CONTENTS_FAULTS)[number]>['create'] = (core) => {
  const { directory, faults, downloads } = core;
  const git = createGitState(directory);
  const refuseEmpty = (state: RepositoryGit, fault?: 'git.blob-empty-repository-accepted') => {
    if (isEmpty(state) && !(fault && faults.on(fault))) throw new ApiError(409, 'CONFLICT', 'Git Repository is empty.');
  };
  /** The repository's Git state and the commit `ref` names (the default branch without one); 404 for an empty repository. */
  const checkout = async (repository: WorldRepository, ref: string | undefined, refError: (ref: string | undefined) => ApiError) => {
    const state = await git.of(repository);
    if (isEmpty(state)) throw new ApiError(404, 'NOT_FOUND', 'This repository is empty.');
    const commit = await resolveRef(state, ref);
    if (!commit) throw refError(ref);
    return { state, commit };
  };
  const noCommitFor = (ref: string | undefined) => new ApiError(404, 'NOT_FOUND', `No commit found for the ref ${ref}`);

  /** The README of `dir` ('' for the root) at the request's ref, as the request's representation asks. */
  const readme = async (request: FastifyRequest, reply: FastifyReply, repository: WorldRepository, dir: string) => {
    const ref = queryValue(request.query, 'ref');
    const { state, commit } = await checkout(repository, ref, noCommitFor);
    const folder = await locate(state, commit, faults.on('readme.subdirectory-ignored') ? '' : dir);
    if (folder === undefined) throw notFound();
    if (folder.kind !== 'dir') throw validationFailed([{ resource: 'Readme', field: 'dir', code: 'invalid' }]);
    const entry = readmeEntry(folder.entries, faults.on('readme.case-sensitive'));
    if (!entry) throw new ApiError(404, 'NOT_FOUND', 'Not Found');
    const [file] = await describeEntries(state, commit, folder, [entry]);
    if (file.kind !== 'file') throw notFound();
    if (request.representation === 'html' && !faults.on('readme.html-as-raw')) return html(reply, file);
    if (request.representation === 'raw' || request.representation === 'html') return raw(reply, await file.bytes());
    const context = { base: representerFor(request, directory), faults, repository, ref: ref ?? state.refs.defaultBranch, downloads };
    return representEntry(context, file, true);
  };

  const endpoints = [
    ...fileEndpoints(core, git),
    defineEndpoint({
      spec: { document: 1, number: 20 },
      id: 'archive.tarball',
      summary: 'Download a tar archive of a repository',
      method: 'GET',
      path: '/repos/:owner/:repo/tarball/:ref',
      responses: { 302: 'redirect' },
      access: CONTENTS_READ,
      handler: async (request, reply, { repository }) => {
        const ref = faults.on('archive.ref-ignored') ? undefined : request.params.ref;
        const { state, commit } = await checkout(repository, ref, notFound);
        const folder = `${repository.owner}-${repository.name}-${commit.slice(0, 7)}`;
        const file = { body: () => tarball(state, commit, folder), contentType: 'application/x-gzip', filename: `${folder}.tar.gz` };
        if (faults.on('archive.served-without-redirect')) return reply.header('content-type', file.contentType).send(await file.body());
        const ttl = repository.private && !faults.on('archive.private-link-never-expires') ? PRIVATE_ARCHIVE_TTL_MS : PUBLIC_ARCHIVE_TTL_MS;
        return reply
          .code(302)
          .header('location', `${representerFor(request, directory).origin}${downloads.issue(file, ttl)}`)
          .send();
      },
    }),
    defineEndpoint({
      spec: { document: 1, number: 18 },
      id: 'readme.get',
      summary: 'Get a repository README',
      method: 'GET',
      path: '/repos/:owner/:repo/readme',
      responses: { 200: 'content-file' },
      access: CONTENTS_READ,
      representations: ['raw', 'html'],
      handler: (request, reply, { repository }) => readme(request, reply, repository, ''),
    }),
    defineEndpoint({
      spec: { document: 1, number: 19 },
      id: 'readme.get-in-directory',
      summary: 'Get a repository README for a directory',
      method: 'GET',
      path: '/repos/:owner/:repo/readme/:dir',
      responses: { 200: 'content-file' },
      access: CONTENTS_READ,
      representations: ['raw', 'html'],
      handler: (request, reply, { repository }) => readme(request, reply, repository, request.params.dir.replace(/^\/+|\/+$/g, '')),
    }),
    defineEndpoint({
      spec: { document: 1, number: 15 },
      id: 'contents.get',
      summary: 'Get repository content',
      method: 'GET',
      path: '/repos/:owner/:repo/contents*',
      responses: { 200: ['content-file', 'content-listing-entry[]'] },
      access: CONTENTS_READ,
      representations: ['raw', 'object', 'html'],
      handler: async (request, reply, { repository }) => {
        const path = contentsPath(request.params['*']);
        if (path === undefined) throw notFound();
        const ref = queryValue(request.query, 'ref');
        const { state, commit } = await checkout(repository, faults.on('contents.ref-ignored') ? undefined : ref, () => noCommitFor(ref));
        let item = await locate(state, commit, path);
        if (!item) throw notFound();
        if (item.kind === 'symlink' && !faults.on('contents.symlink-not-followed')) {
          // A link to a normal file of the repository yields that file.
          const targetPath = linkTarget(item.path, item.target);
          const target = targetPath === undefined ? undefined : await locate(state, commit, targetPath);
          if (target?.kind === 'file') item = target;
        }
        const context = { base: representerFor(request, directory), faults, repository, ref: ref ?? state.refs.defaultBranch, downloads };
        if (item.kind === 'dir') {
          const shown = faults.on('contents.listing-unbounded') ? item.entries : item.entries.slice(0, LISTING_MAX);
          const children = await describeEntries(state, commit, item, shown);
          // A submodule is typed file in a listing, for backwards compatibility (spec 1, Content entry).
          const listing = await Promise.all(
            children.map(async (child) => ({
              ...(await representEntry(context, child)),
              ...(child.kind === 'submodule' && !faults.on('contents.submodule-typed-submodule') && { type: 'file' }),
            })),
          );
          const asObject =
            request.representation === 'object' ? !faults.on('contents.object-ignored') : faults.on('contents.listing-as-object');
          return asObject ? { ...(await representEntry(context, item)), entries: listing } : listing;
        }
        if (item.kind === 'file') {
          // Rule 5: up to 1 MiB every representation; up to 100 MiB raw and object only; above, none.
          if (item.size > MAX_CONTENT_BYTES && !faults.on('contents.huge-served'))
            throw tooLarge(item.path, item.size, 'files up to 100 MB');
          const limited = request.representation !== 'raw' && request.representation !== 'object';
          const large = faults.on('contents.size-limit-exclusive')
            ? item.size >= FULL_FEATURES_MAX_BYTES
            : item.size > FULL_FEATURES_MAX_BYTES;
          if (large && limited && !faults.on('contents.large-content-inline'))
            throw tooLarge(item.path, item.size, 'files over 1 MB only with the raw or object media type (or through the Git blobs API)');
        }
        if (request.representation === 'html' && item.kind === 'file' && !faults.on('contents.html-as-raw')) return html(reply, item);
        const asRaw = request.representation === 'raw' || (request.representation === 'html' && faults.on('contents.html-as-raw'));
        if (asRaw && !faults.on('contents.raw-ignored') && (item.kind === 'file' || item.kind === 'symlink'))
          return raw(reply, item.kind === 'file' ? await item.bytes() : Buffer.from(item.target));
        return representEntry(context, item, true);
      },
    }),
    defineEndpoint({
      spec: { document: 1, number: 21 },
      id: 'git.create-blob',
      summary: 'Create a blob',
      method: 'POST',
      path: '/repos/:owner/:repo/git/blobs',
      responses: { 201: 'blob-created' },
      access: CONTENTS_WRITE,
      body: BLOB_BODY,
      bodyLimit: BLOB_BODY_LIMIT_BYTES,
      handler: async (request, reply, { repository }) => {
        const state = await git.of(repository);
        refuseEmpty(state, 'git.blob-empty-repository-accepted');
        const { content, encoding = 'utf-8' } = request.body;
        const bytes =
          encoding === 'utf-8'
            ? Buffer.from(content, 'utf8')
            : (decodeBase64(content) ?? (faults.on('git.blob-base64-unchecked') ? Buffer.from(content, 'base64') : undefined));
        if (!bytes) throw validationFailed([{ resource: 'Blob', field: 'content', code: 'invalid' }]);
        if (bytes.length > MAX_CONTENT_BYTES)
          throw validationFailed([{ resource: 'Blob', field: 'content', code: 'custom', message: 'too_large' }]);
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
      responses: { 200: 'blob' },
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
        const size = held ? await state.store.blobSize(sha) : 0;
        if (size > MAX_CONTENT_BYTES && !faults.on('git.blob-huge-served')) throw tooLarge(`blob ${sha}`, size, 'blobs up to 100 MB');
        const bytes = held ? await state.store.readBlob(sha) : new Uint8Array();
        if (request.representation === 'raw' && !faults.on('git.blob-raw-as-json')) return raw(reply, bytes);
        return representBlob(representerFor(request, directory), faults, repository, sha, bytes);
      },
    }),
  ];
  return { name: 'contents', endpoints, reset: () => git.reset(), state: () => git.snapshot() };
};

export const contents = { name: 'contents', faults: CONTENTS_FAULTS, create } satisfies AreaModule;
