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
// - Sizes: "1 MB" and "100 MB" are 1 MiB and 100 MiB, as real hosts count them. A file or
//   blob over 100 MiB, or a file over 1 MiB asked for in the default or html media type, is
//   403 ("blocked content access"). A blob created with over 100 MiB of content is 422
//   (`custom`, `too_large`); its request body may hold up to 150 MiB (Base64 adds a third),
//   beyond which it is 413 like any body over its limit.
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import type { Caller } from '../../auth/credentials.js';
import { noreplyEmail } from '../../git/world-git.js';
import { representCommit } from './commit-representation.js';
import { writeFile } from './file-writes.js';
import type { AreaModule } from '../../area.js';
import { onRepository, read, REPOSITORY_READ_SCOPES, REPOSITORY_WRITE_SCOPES, write } from '../../auth/endpoint-access.js';
import { defineEndpoint } from '../../endpoint.js';
import { queryValue } from '../../query.js';
import { ApiError, notFound, validationFailed } from '../../errors.js';
import { representerFor } from '../../representations.js';
import { blobUrl, representBlob } from './blob-representation.js';
import { FULL_FEATURES_MAX_BYTES, representEntry } from './content-representation.js';
import { readmeEntry, renderReadme } from './readme.js';
import { tarball } from './tarball.js';
import { describeEntries, linkTarget, locate, resolveRef, type Located } from './tree-reader.js';
import { createGitState, isEmpty, type RepositoryGit } from './git-state.js';
import type { WorldRepository } from '../../world-model.js';

const BLOB_BODY = Type.Object(
  { content: Type.String(), encoding: Type.Optional(Type.Enum(['utf-8', 'base64'])) },
  { title: 'Blob', additionalProperties: false },
);

/** A commit identity in a request body; name and email are checked by the handler (spec 1, rule 8 of the contents endpoints). */
const IDENTITY = Type.Object(
  { name: Type.Optional(Type.String()), email: Type.Optional(Type.String()), date: Type.Optional(Type.String({ format: 'date-time' })) },
  { additionalProperties: false },
);
const FILE_FIELDS = {
  message: Type.String({ minLength: 1 }),
  branch: Type.Optional(Type.String({ minLength: 1 })),
  committer: Type.Optional(IDENTITY),
  author: Type.Optional(IDENTITY),
};
const FILE_BODY = Type.Object(
  { ...FILE_FIELDS, content: Type.String(), sha: Type.Optional(Type.String()) },
  { title: 'File', additionalProperties: false },
);
const FILE_DELETE_BODY = Type.Object({ ...FILE_FIELDS, sha: Type.String() }, { title: 'File', additionalProperties: false });

/** Where a repository's workflows live: writing there needs more (rule 9). */
const WORKFLOW_DIRECTORY = '.github/workflows/';

/** The path a contents URL names ('' for the root); undefined when the route's `contents*` matched `/contentsX`. */
function contentsPath(rest: string | undefined): string | undefined {
  if (rest === undefined || (rest !== '' && !rest.startsWith('/'))) return undefined;
  return rest.replace(/^\/+|\/+$/g, '');
}

const CONTENTS_READ = onRepository({ anonymous: true, scopes: REPOSITORY_READ_SCOPES, permissions: [read('contents')], role: 'visible' });
const CONTENTS_WRITE = onRepository({ anonymous: false, scopes: REPOSITORY_WRITE_SCOPES, permissions: [write('contents')], role: 'push' });
const FILE_WRITE = {
  ...CONTENTS_WRITE,
  further: {
    what: `files in ${WORKFLOW_DIRECTORY}`,
    applies: (params: Readonly<Record<string, string | undefined>>) => contentsPath(params['*'])?.startsWith(WORKFLOW_DIRECTORY) === true,
    scopes: ['workflow'],
    permissions: [write('workflows')],
  },
};

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

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The bytes of Base64 text (line breaks and spaces ignored), or undefined when it is not Base64. */
function decodeBase64(text: string): Buffer | undefined {
  const compact = text.replace(/\s+/g, '');
  return compact.length % 4 === 0 && BASE64.test(compact) ? Buffer.from(compact, 'base64') : undefined;
}

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

/** Who a request acts as, in the commits it makes when the body names nobody. */
function callerIdentity(caller: Caller | null): { name: string; email: string } {
  switch (caller?.kind) {
    case 'classic':
    case 'oauth':
    case 'fine-grained':
    case 'app-user':
      return { name: caller.user.login, email: noreplyEmail(caller.user.login, caller.user.id) };
    default: {
      const bot = caller?.kind === 'workflow' ? 'service-actions[bot]' : 'service-app[bot]';
      return { name: bot, email: `${bot}@users.noreply.touchstone.invalid` };
    }
  }
}

/** A path a file may be written at: no empty, `.` or `..` segment, and no `.git` (git itself refuses one). */
const writablePath = (path: string) =>
  path !== '' && path.split('/').every((s) => s !== '' && s !== '.' && s !== '..' && s.toLowerCase() !== '.git');

const create: AreaModule<(typeof CONTENTS_FAULTS)[number]>['create'] = ({ directory, faults, downloads, clock, failures }) => {
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

  /** Endpoints 16 and 17: `bytes` written at the request's path (null: the file deleted), as a Commit result. */
  const writeThrough = async (
    request: FastifyRequest<{ Params: { '*': string }; Body: Static<typeof FILE_DELETE_BODY> | Static<typeof FILE_BODY> }>,
    reply: FastifyReply,
    repository: WorldRepository,
    bytes: Uint8Array | null,
  ) => {
    const path = contentsPath(request.params['*']);
    if (path === undefined) throw notFound();
    if (!writablePath(path)) throw validationFailed([{ resource: 'File', field: 'path', code: 'invalid' }]);
    const { message, branch, sha } = request.body;
    const now = Math.floor(clock.now() / 1000);
    const signature = (field: 'author' | 'committer') => {
      const given = request.body[field];
      if (given === undefined) return undefined;
      const missing = (['name', 'email'] as const).filter((key) => !given[key]);
      if (missing.length > 0 && !faults.on('contents.write-identity-unchecked'))
        throw validationFailed(missing.map((key) => ({ resource: 'File', field: `${field}.${key}`, code: 'missing_field' })));
      const date = given.date === undefined ? now : Math.floor(Date.parse(given.date) / 1000);
      return { name: given.name ?? '', email: given.email ?? '', timestamp: date };
    };
    const caller = { ...callerIdentity(request.caller), timestamp: now };
    const committer = signature('committer') ?? caller;
    const author = signature('author') ?? (faults.on('contents.write-author-is-caller') ? caller : committer);
    if (failures.take('storage'))
      throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'The change could not be stored; the branch is unchanged. Try again.');
    const state = await git.of(repository);
    const written = await writeFile(
      state,
      {
        branch: faults.on('contents.write-branch-ignored') ? undefined : branch,
        path,
        bytes,
        sha,
        message,
        author,
        committer,
        resource: 'File',
      },
      {
        lastWriteWins: faults.on('contents.write-concurrent-last-wins'),
        shaUnchecked: faults.on('contents.write-sha-unchecked'),
        parentDropped: faults.on('contents.write-parent-dropped'),
        deleteKept: faults.on('contents.delete-kept'),
      },
    );
    const base = representerFor(request, directory);
    const file = written.blob === undefined ? undefined : await locate(state, written.commit, path);
    const created = faults.on('contents.write-updated-201') || (written.created && !faults.on('contents.write-created-200'));
    reply.code(created ? 201 : 200);
    return {
      content: file ? await representEntry({ base, faults, repository, ref: written.branch, downloads }, file) : null,
      commit: representCommit(base, repository, written.commit, written.object),
    };
  };

  const endpoints = [
    defineEndpoint({
      spec: { document: 1, number: 16 },
      id: 'contents.put',
      summary: 'Create or update file contents',
      method: 'PUT',
      path: '/repos/:owner/:repo/contents*',
      access: FILE_WRITE,
      body: FILE_BODY,
      handler: async (request, reply, { repository }) => {
        const bytes = decodeBase64(request.body.content);
        if (!bytes) throw validationFailed([{ resource: 'File', field: 'content', code: 'invalid' }]);
        return writeThrough(request, reply, repository, bytes);
      },
    }),
    defineEndpoint({
      spec: { document: 1, number: 17 },
      id: 'contents.delete',
      summary: 'Delete a file',
      method: 'DELETE',
      path: '/repos/:owner/:repo/contents*',
      access: FILE_WRITE,
      body: FILE_DELETE_BODY,
      handler: (request, reply, { repository }) => writeThrough(request, reply, repository, null),
    }),
    defineEndpoint({
      spec: { document: 1, number: 20 },
      id: 'archive.tarball',
      summary: 'Download a tar archive of a repository',
      method: 'GET',
      path: '/repos/:owner/:repo/tarball/:ref',
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
  return { name: 'contents', endpoints, reset: () => git.reset() };
};

export const contents = { name: 'contents', faults: CONTENTS_FAULTS, create } satisfies AreaModule;
