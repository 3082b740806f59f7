// Endpoints 16 and 17: a file written or deleted through the contents API, as a commit
// (file-writes.ts) answered with the Commit result (commit-representation.ts).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import type { ServiceCore } from '../../area.js';
import type { Caller } from '../../auth/credentials.js';
import { defineEndpoint, type Endpoint } from '../../endpoint.js';
import { ApiError, notFound, validationFailed } from '../../errors.js';
import { noreplyEmail } from '../../git/world-git.js';
import { representerFor } from '../../representations.js';
import type { WorldRepository } from '../../world-model.js';
import { decodeBase64 } from './blob-representation.js';
import { representCommit } from './commit-representation.js';
import { contentsPath, FILE_WRITE } from './contents-access.js';
import { representEntry } from './content-representation.js';
import { sizeLimits } from './size-limits.js';
import { writeFile } from './file-writes.js';
import type { GitState } from './git-state.js';
import { locate } from './tree-reader.js';

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

export function fileEndpoints({ directory, faults, variants, downloads, clock, failures }: ServiceCore, git: GitState): Endpoint[] {
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
    // A write the storage refuses is 503 at once (17 lists 503, "seen on file deletion"); the
    // variation contents.storage-retried tries once more before giving up.
    const attempts = variants.on('contents.storage-retried') ? 2 : 1;
    if (Array.from({ length: attempts }).every(() => failures.take('storage')))
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
      { missingShaConflict: variants.on('contents.missing-sha-409'), queued: variants.on('contents.writes-queued') },
    );
    const base = representerFor(request, directory);
    const file = written.blob === undefined ? undefined : await locate(state, written.commit, path);
    const created = faults.on('contents.write-updated-201') || (written.created && !faults.on('contents.write-created-200'));
    reply.code(created ? 201 : 200);
    return {
      content: file
        ? await representEntry(
            { base, faults, variants, limits: sizeLimits(faults, variants), repository, ref: written.branch, downloads },
            file,
          )
        : null,
      commit: representCommit(base, repository, written.commit, written.object),
    };
  };

  return [
    defineEndpoint({
      spec: { document: 1, number: 16 },
      id: 'contents.put',
      summary: 'Create or update file contents',
      method: 'PUT',
      path: '/repos/:owner/:repo/contents*',
      responses: { 200: 'commit-result', 201: 'commit-result' },
      access: FILE_WRITE,
      body: FILE_BODY,
      handler: (request, reply, { repository }) => {
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
      responses: { 200: 'commit-result' },
      access: FILE_WRITE,
      body: FILE_DELETE_BODY,
      handler: (request, reply, { repository }) => writeThrough(request, reply, repository, null),
    }),
  ];
}
