// Workflow artifacts, endpoints 10–14 of spec document 1: the world's workflow runs and
// their artifacts, each a real zip (fflate) of the files the world lists, whose size and
// sha256 digest the Artifact carries.
//
// Decisions where the spec is silent (README "Workflow artifacts"), and the variations that
// make some otherwise (suites/variants/artifacts.yaml):
// - Lists are newest first (created_at, then id); `name` filters exactly (case matters).
// - An artifact expires `retention_days` after it was created, on the service clock; an
//   expired one is still listed and served (`expired: true`), its download is 410.
// - `archive_format` other than `zip` is 404 (no such archive), as real hosts answer.
// - A deleted artifact is 404 everywhere; variation `artifacts.deleted-gone-410` answers 410
//   (gone) for it instead. An unknown run is 404 on endpoint 14.
// - size_in_bytes is the length of the zip served and digest `sha256:` of it (the spec names
//   the fields only); variations `artifacts.size-uncompressed` (the files' total length) and
//   `artifacts.digest-of-uploaded-files` (a digest of the files as uploaded, not of the zip).
// - Reading 10, 11 and 14 with a fine-grained token needs Actions (read) on a public
//   repository too; variation `artifacts.public-read-without-actions` lets any token read
//   what anonymous callers may ("public data without authentication"), keeping the
//   permission for private repositories.
// - Download links are single-use (as spec 1 makes contents links), valid one minute;
//   variation `artifacts.links-reusable` lets a link serve until its minute is up (for
//   artifacts the spec says only that the URL expires).
// - The zip's entries are dated with the artifact's created_at (same bytes every time);
//   a series artifact holds one file NAME.txt reading "NAME\n".
// - node_id is Base64 of `Artifact_<id>`; updated_at is created_at.
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AreaModule } from '../../area.js';
import { actionsRead, onRepository, read, write } from '../../auth/endpoint-access.js';
import { fullName } from '../../directory.js';
import { defineEndpoint } from '../../endpoint.js';
import { ApiError, notFound } from '../../errors.js';
import { pageOf } from '../../pagination.js';
import { pathId, queryValue } from '../../query.js';
import { representerFor } from '../../representations.js';
import { DAY_MS, formatTimestamp } from '../../clock.js';
import type { WorldArtifact, WorldRepository, WorldWorkflowRun } from '../../world-model.js';
import { artifactZip, expandArtifacts } from './artifact-files.js';

const ARTIFACTS_READ = actionsRead('artifacts.public-read-without-actions');
const ARTIFACTS_DELETE = onRepository({
  anonymous: false,
  scopes: { public: ['repo', 'public_repo'], private: ['repo'] },
  permissions: [write('actions')],
  role: 'push',
});
/** Downloads need a token with a scope, even on a public repository (spec 1, workflow artifacts). */
const ARTIFACTS_DOWNLOAD = onRepository({
  anonymous: false,
  scopes: { public: ['repo', 'public_repo'], private: ['repo'] },
  permissions: [read('actions')],
  role: 'visible',
});

/** The download link of an artifact lives a minute of the service clock (spec 1, Limits). */
export const ARTIFACT_LINK_TTL_MS = 60 * 1000;

interface Artifact extends WorldArtifact {
  run: WorldWorkflowRun;
  zip: Buffer;
}

/** A run's artifacts, series expanded, each with its zip. */
function artifactsOf(run: WorldWorkflowRun): Artifact[] {
  return expandArtifacts(run).map((artifact) => ({ ...artifact, run, zip: artifactZip(artifact) }));
}

/** The bytes of each file as uploaded, in path order: what a digest of the upload (not of the zip) covers. */
function uploadManifest(artifact: WorldArtifact): Buffer {
  const paths = Object.keys(artifact.files).sort();
  return Buffer.concat(paths.flatMap((p) => [Buffer.from(`${p}\0`), Buffer.from(artifact.files[p]!), Buffer.from('\0')]));
}

const create: AreaModule['create'] = ({ directory, clock, faults, variants, downloads }) => {
  /** Every artifact of each repository, newest first, built once. */
  const world = new Map(
    directory.world.repositories.map((repository) => [
      fullName(repository).toLowerCase(),
      (repository.workflow_runs ?? []).flatMap(artifactsOf).sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id),
    ]),
  );
  let deleted = new Set<number>();
  const listOf = (repository: WorldRepository) =>
    (world.get(fullName(repository).toLowerCase()) ?? []).filter((artifact) => !deleted.has(artifact.id));
  const find = (repository: WorldRepository, idText: string) => {
    const id = pathId(idText);
    const artifact = listOf(repository).find((a) => a.id === id);
    if (artifact) return artifact;
    // One deleted is 404 like one that never was, or (the variation) 410: it is gone.
    const wasHere = id !== undefined && deleted.has(id) && (world.get(fullName(repository).toLowerCase()) ?? []).some((a) => a.id === id);
    throw wasHere && variants.on('artifacts.deleted-gone-410') ? new ApiError(410, 'GONE', 'Artifact has been deleted') : notFound();
  };
  const expiresAt = (artifact: Artifact) => Date.parse(artifact.created_at) + artifact.retention_days * DAY_MS;

  const represent = (request: FastifyRequest, repository: WorldRepository, artifact: Artifact) => {
    const api = `${representerFor(request, directory).origin}/repos/${repository.owner}/${repository.name}/actions/artifacts/${artifact.id}`;
    // What the size and the digest measure is not said: the zip served, or (variations) the files uploaded.
    const hashed = variants.on('artifacts.digest-of-uploaded-files') ? uploadManifest(artifact) : artifact.zip;
    const size = variants.on('artifacts.size-uncompressed')
      ? Object.values(artifact.files).reduce((total, text) => total + Buffer.byteLength(text), 0)
      : artifact.zip.length;
    return {
      id: artifact.id,
      node_id: Buffer.from(`Artifact_${artifact.id}`).toString('base64'),
      name: artifact.name,
      size_in_bytes: size,
      url: api,
      archive_download_url: `${api}/zip`,
      expired: clock.now() > expiresAt(artifact) && !faults.on('artifacts.never-expired'),
      created_at: formatTimestamp(Date.parse(artifact.created_at)),
      expires_at: formatTimestamp(expiresAt(artifact)),
      updated_at: formatTimestamp(Date.parse(artifact.created_at)),
      digest: `sha256:${createHash('sha256').update(hashed).digest('hex')}`,
      workflow_run: {
        id: artifact.run.id,
        repository_id: repository.id,
        head_repository_id: repository.id,
        head_branch: artifact.run.head_branch,
        head_sha: artifact.run.head_sha,
      },
    };
  };

  /** Endpoints 10 and 14: a filtered list as {total_count, artifacts}, one page of it. */
  const list = (request: FastifyRequest, reply: FastifyReply, repository: WorldRepository, all: Artifact[]) => {
    const name = queryValue(request.query, 'name');
    const filtered = name === undefined || faults.on('artifacts.name-filter-ignored') ? all : all.filter((a) => a.name === name);
    const artifacts = pageOf(request, reply, filtered).map((artifact) => represent(request, repository, artifact));
    return faults.on('artifacts.list-bare-array') ? artifacts : { total_count: filtered.length, artifacts };
  };

  const endpoints = [
    defineEndpoint({
      spec: { document: 1, number: 10 },
      id: 'artifacts.list',
      summary: 'List artifacts for a repository',
      method: 'GET',
      path: '/repos/:owner/:repo/actions/artifacts',
      responses: { 200: 'artifact-list' },
      access: ARTIFACTS_READ,
      handler: (request, reply, { repository }) => list(request, reply, repository, listOf(repository)),
    }),
    defineEndpoint({
      spec: { document: 1, number: 11 },
      id: 'artifacts.get',
      summary: 'Get an artifact',
      method: 'GET',
      path: '/repos/:owner/:repo/actions/artifacts/:artifact_id',
      responses: { 200: 'artifact' },
      access: ARTIFACTS_READ,
      handler: (request, _reply, { repository }) => represent(request, repository, find(repository, request.params.artifact_id)),
    }),
    defineEndpoint({
      spec: { document: 1, number: 12 },
      id: 'artifacts.delete',
      summary: 'Delete an artifact',
      method: 'DELETE',
      path: '/repos/:owner/:repo/actions/artifacts/:artifact_id',
      responses: { 204: 'empty' },
      access: ARTIFACTS_DELETE,
      handler: (request, reply, { repository }) => {
        const artifact = find(repository, request.params.artifact_id);
        if (!faults.on('artifacts.delete-ignored')) deleted.add(artifact.id);
        return reply.code(204).send();
      },
    }),
    defineEndpoint({
      spec: { document: 1, number: 13 },
      id: 'artifacts.download',
      summary: 'Download an artifact',
      method: 'GET',
      path: '/repos/:owner/:repo/actions/artifacts/:artifact_id/:archive_format',
      responses: { 302: 'redirect' },
      access: ARTIFACTS_DOWNLOAD,
      handler: (request, reply, { repository }) => {
        const artifact = find(repository, request.params.artifact_id);
        if (request.params.archive_format !== 'zip' && !faults.on('artifacts.any-format')) throw notFound();
        if (clock.now() > expiresAt(artifact) && !faults.on('artifacts.expired-downloadable'))
          throw new ApiError(410, 'GONE', 'Artifact has expired');
        if (faults.on('artifacts.download-inline')) return reply.code(200).header('content-type', 'application/zip').send(artifact.zip);
        const ttl = faults.on('artifacts.link-long-lived') ? 60 * ARTIFACT_LINK_TTL_MS : ARTIFACT_LINK_TTL_MS;
        const link = downloads.issue({ body: artifact.zip, contentType: 'application/zip', filename: `${artifact.name}.zip` }, ttl, {
          reusable: variants.on('artifacts.links-reusable'),
        });
        return reply
          .code(302)
          .header('location', `${representerFor(request, directory).origin}${link}`)
          .send();
      },
    }),
    defineEndpoint({
      spec: { document: 1, number: 14 },
      id: 'artifacts.list-for-run',
      summary: 'List workflow run artifacts',
      method: 'GET',
      path: '/repos/:owner/:repo/actions/runs/:run_id/artifacts',
      responses: { 200: 'artifact-list' },
      access: ARTIFACTS_READ,
      handler: (request, reply, { repository }) => {
        const runId = pathId(request.params.run_id);
        if (!(repository.workflow_runs ?? []).some((run) => run.id === runId)) throw notFound();
        const all = listOf(repository);
        return list(request, reply, repository, faults.on('artifacts.run-filter-ignored') ? all : all.filter((a) => a.run.id === runId));
      },
    }),
  ];
  return { name: 'artifacts', endpoints, reset: () => void (deleted = new Set()), state: () => deleted };
};

export const artifacts = { name: 'artifacts', create } satisfies AreaModule;
