// Repository contents and Git data, endpoints 15–22 of spec document 1, over the
// repositories' real Git objects (git-state.ts, ../../git/): contents (15), README (18, 19),
// the tar archive (20) and Git blobs (21, 22) here; writing files (16, 17) in file-endpoints.ts.
//
// Decisions where the spec is silent (README "Git blobs"), each with the built-in variation
// (suites/variants/contents.yaml) that makes it the other way:
// - `encoding` is `utf-8` (the default) or `base64`; any other value is 422, and so is
//   `base64` content that is not Base64 (line breaks and spaces in it are ignored).
//   git.blob-default-base64: content without `encoding` is Base64. git.blob-base64-lenient:
//   Base64 is decoded as Node decodes it, skipping what is not of its alphabet.
// - A repository with no commits answers 409 ("Git Repository is empty."), as real hosts do.
//   git.blob-empty-repository-writable: blobs are created there, and read like anywhere else.
// - A `file_sha` that is not 40 hexadecimal digits is 422; a well-formed one the repository
//   does not hold as a blob is 404. git.blob-malformed-sha-404: 404 for both.
// - The raw representation is the blob's bytes, `Content-Type: application/vnd.service.raw`.
// - Sizes (size-limits.ts): "1 MB" and "100 MB" are 1 MiB and 100 MiB, as real hosts count
//   them (contents.decimal-megabyte: 10^6 and 10^8 bytes). A file or blob over 100 MB, or a
//   file over 1 MB asked for in the default or html media type, is 403 ("blocked content
//   access"); contents.size-refusal-codes: 406 for a representation the file's size does not
//   have, 422 for a file or blob over 100 MB. A blob created with over 100 MB of content is
//   422 (`custom`, `too_large`); its request body may hold up to 150 MiB (Base64 adds a
//   third), beyond which it is 413 like any body over its limit.
//
// Decisions where the spec is silent (README "Repository contents"), with their variations:
// - A directory lists its entries in Git's tree order (byte order of the names).
//   contents.listing-order: directories first, then files, each case-insensitively by name.
// - With the object media type a directory is its own entry with `entries` added ("an object
//   whose `entries` attribute holds the array"). contents.object-bare-entries: `{entries}` only.
// - A symlink to a file of the repository yields the file's entry under the file's path.
//   contents.symlink-keeps-link-path: under the link's path and name, with the file's content.
// - The raw type of a symlink that leaves the repository is the link's text (rule 1: "raw
//   contents for files and symlinks"). contents.raw-symlink-described: its description
//   (rule 3: "otherwise an object describing the symlink").
// - The html type is `text/html; charset=utf-8`. contents.html-vendor-type: the media type
//   asked for, `application/vnd.service.html+json; charset=utf-8`, the body still HTML.
// README (readme.ts, here for the endpoints):
// - The service's default media type yields the README's Content entry, the raw type its
//   bytes (rule 2 calls raw the default; the output column gives a Content entry).
//   readme.default-raw: the service's default type yields the raw bytes.
// - `dir` naming a file is 422. readme.dir-file-404: 404, as for a directory without README.
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AreaModule } from '../../area.js';
import type { Caller } from '../../auth/credentials.js';
import { defineEndpoint } from '../../endpoint.js';
import { ApiError, notFound, validationFailed } from '../../errors.js';
import { queryValue } from '../../query.js';
import { representerFor } from '../../representations.js';
import type { WorldRepository } from '../../world-model.js';
import { blobUrl, decodeBase64, representBlob } from './blob-representation.js';
import { CONTENTS_READ, CONTENTS_WRITE, contentsPath } from './contents-access.js';
import { representEntry } from './content-representation.js';
import { fileEndpoints } from './file-endpoints.js';
import { createGitState, isEmpty, type RepositoryGit } from './git-state.js';
import { readmeEntry, renderReadme } from './readme.js';
import { sizeLimits } from './size-limits.js';
import { tarball } from './tarball.js';
import { describeEntries, linkTarget, listingOrder, locate, resolveRef, type Located } from './tree-reader.js';

const BLOB_BODY = Type.Object(
  { content: Type.String(), encoding: Type.Optional(Type.Enum(['utf-8', 'base64'])) },
  { title: 'Blob', additionalProperties: false },
);

/**
 * Built-in variations of this area: other choices where the spec leaves one open
 * (suites/variants/contents.yaml says what each does and the words that allow it).
 */
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
async function html(request: FastifyRequest, reply: FastifyReply, file: Extract<Located, { kind: 'file' }>): Promise<string> {
  const { variants } = request;
  reply.header(
    'content-type',
    variants.on('contents.html-vendor-type') ? 'application/vnd.service.html+json; charset=utf-8' : 'text/html; charset=utf-8',
  );
  return renderReadme(file.path, Buffer.from(await file.bytes()).toString('utf8'), variants.on('contents.html-heading-anchors'));
}

/**
 * A file or blob the API does not serve this way by its size (rule 5): 403, "blocked content
 * access" in the spec's errors table; with contents.size-refusal-codes, 406 for a
 * representation its size does not have and 422 for one over the maximum.
 */
function tooLarge(request: FastifyRequest, why: 'representation' | 'maximum', what: string, size: number, served: string): ApiError {
  const message = `${what} has ${size} bytes: this API serves ${served}.`;
  if (!request.variants.on('contents.size-refusal-codes')) return new ApiError(403, 'FORBIDDEN', message);
  return why === 'representation'
    ? new ApiError(406, 'NOT_ACCEPTABLE', message)
    : validationFailed([{ resource: 'Content', field: 'size', code: 'custom', message }]);
}

/** A directory lists at most this many entries (spec 1, rule 4 of the contents endpoints). */
const LISTING_MAX = 1000;

const isAnonymous = (caller: Caller | null) => caller === null || caller.kind === 'anonymous';

const create: AreaModule['create'] = (core) => {
  const { directory, faults, variants, downloads } = core;
  const git = createGitState(directory);
  /** 409 for a repository with no commits, unless the variation creates and reads blobs there too. */
  const refuseEmpty = (state: RepositoryGit) => {
    if (isEmpty(state) && !variants.on('git.blob-empty-repository-writable'))
      throw new ApiError(409, 'CONFLICT', 'Git Repository is empty.');
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
  const entryContext = (request: FastifyRequest, repository: WorldRepository, ref: string) => ({
    base: representerFor(request, directory),
    faults,
    variants,
    limits: sizeLimits(faults, variants),
    repository,
    ref,
    downloads,
  });

  /** The README of `dir` ('' for the root) at the request's ref, as the request's representation asks. */
  const readme = async (request: FastifyRequest, reply: FastifyReply, repository: WorldRepository, dir: string) => {
    if (faults.on('readme.anonymous-refused') && isAnonymous(request.caller))
      throw new ApiError(401, 'REQUIRES_AUTHENTICATION', 'Requires authentication');
    const ref = queryValue(request.query, 'ref');
    const { state, commit } = await checkout(repository, ref, noCommitFor);
    const folder = await locate(state, commit, faults.on('readme.subdirectory-ignored') ? '' : dir);
    if (folder === undefined) throw notFound();
    if (folder.kind !== 'dir') {
      if (variants.on('readme.dir-file-404')) throw notFound();
      throw validationFailed([{ resource: 'Readme', field: 'dir', code: 'invalid' }]);
    }
    const entry = readmeEntry(folder.entries, faults.on('readme.case-sensitive'));
    if (!entry) throw new ApiError(404, 'NOT_FOUND', 'Not Found');
    const [file] = await describeEntries(state, commit, folder, [entry]);
    if (file.kind !== 'file') throw notFound();
    const { representation } = request;
    if (representation === 'html' && !faults.on('readme.html-as-raw')) return html(request, reply, file);
    // Rule 2 calls raw the default; the reference gives the service's default type the Content entry.
    const asRaw = representation === 'raw' || representation === 'html' || variants.on('readme.default-raw');
    if (asRaw) return raw(reply, await file.bytes());
    return representEntry(entryContext(request, repository, ref ?? state.refs.defaultBranch), file, true);
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
          if (target?.kind === 'file') item = variants.on('contents.symlink-keeps-link-path') ? { ...target, path: item.path } : target;
        }
        const context = entryContext(request, repository, ref ?? state.refs.defaultBranch);
        const { limits } = context;
        if (item.kind === 'dir') {
          const ordered = variants.on('contents.listing-order') ? listingOrder(item.entries) : item.entries;
          const shown = faults.on('contents.listing-unbounded') ? ordered : ordered.slice(0, LISTING_MAX);
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
          if (!asObject) return listing;
          return variants.on('contents.object-bare-entries')
            ? { entries: listing }
            : { ...(await representEntry(context, item)), entries: listing };
        }
        if (item.kind === 'file') {
          // Rule 5: up to 1 MB every representation; up to 100 MB raw and object only; above, none.
          if (limits.isOver(item.size) && !faults.on('contents.huge-served'))
            throw tooLarge(request, 'maximum', item.path, item.size, 'files up to 100 MB');
          const limited = request.representation !== 'raw' && request.representation !== 'object';
          if (limits.isLarge(item.size) && limited && !faults.on('contents.large-content-inline'))
            throw tooLarge(
              request,
              'representation',
              item.path,
              item.size,
              'files over 1 MB only with the raw or object media type (or through the Git blobs API)',
            );
        }
        if (request.representation === 'html' && item.kind === 'file' && !faults.on('contents.html-as-raw'))
          return html(request, reply, item);
        const asRaw = request.representation === 'raw' || (request.representation === 'html' && faults.on('contents.html-as-raw'));
        // Rule 1 gives a symlink raw contents, rule 3 a description when it leads out of the repository.
        const rawLink = item.kind === 'symlink' && !variants.on('contents.raw-symlink-described');
        if (asRaw && !faults.on('contents.raw-ignored') && (item.kind === 'file' || rawLink))
          return raw(reply, item.kind === 'file' ? await item.bytes() : Buffer.from(item.kind === 'symlink' ? item.target : ''));
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
        refuseEmpty(state);
        const { content } = request.body;
        const encoding = request.body.encoding ?? (variants.on('git.blob-default-base64') ? 'base64' : 'utf-8');
        const bytes =
          encoding === 'utf-8' || faults.on('git.blob-base64-as-text')
            ? Buffer.from(content, 'utf8')
            : (decodeBase64(content) ?? (variants.on('git.blob-base64-lenient') ? Buffer.from(content, 'base64') : undefined));
        if (!bytes) throw validationFailed([{ resource: 'Blob', field: 'content', code: 'invalid' }]);
        if (sizeLimits(faults, variants).isOver(bytes.length))
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
        if (!/^[0-9a-f]{40}$/.test(sha)) {
          if (variants.on('git.blob-malformed-sha-404')) throw notFound();
          throw validationFailed([{ resource: 'Blob', field: 'file_sha', code: 'invalid' }]);
        }
        // The store holds every repository's objects; this one shows only its own.
        const held = state.objects.has(sha) && (await state.store.typeOf(sha)) === 'blob';
        if (!held && !faults.on('git.blob-unknown-empty')) throw notFound();
        const size = held ? await state.store.blobSize(sha) : 0;
        if (sizeLimits(faults, variants).isOver(size) && !faults.on('git.blob-huge-served'))
          throw tooLarge(request, 'maximum', `blob ${sha}`, size, 'blobs up to 100 MB');
        const bytes = held ? await state.store.readBlob(sha) : new Uint8Array();
        if (request.representation === 'raw' && !faults.on('git.blob-raw-as-json')) return raw(reply, bytes);
        return representBlob(representerFor(request, directory), faults, repository, sha, bytes);
      },
    }),
  ];
  return { name: 'contents', endpoints, reset: () => git.reset(), state: () => git.snapshot() };
};

export const contents = { name: 'contents', create } satisfies AreaModule;
