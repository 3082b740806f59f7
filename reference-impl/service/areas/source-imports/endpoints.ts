// Source imports, endpoints 28–32 of spec document 2, retired at 2024-04-12T00:00Z: an
// import into a repository from another version-control host, on the Import status
// machine of import-progress.ts, reported to a webhook (RepositoryImportEvent) when the
// service has one.
//
// Decisions where the spec is silent (README "Source imports"), and the variations that
// make each otherwise (suites/variants/source-imports.yaml):
// - From 2024-04-12T00:00Z on the service clock every endpoint answers 410 Gone ("the
//   source import endpoints were retired on 2024-04-12"), after authentication. The world's
//   clock starts later, so suites set the clock before it.
// - Classic personal access tokens only: any other kind of token is 403 (the access rule's
//   tokenKinds); variation imports.other-tokens-401 answers 401 (not taken as authentication:
//   the spec names no status). Callers need push access; the repo scope (public_repo on public ones).
// - One import per repository: PUT while one exists is 422 (PATCH or DELETE it first); a
//   repository with workflow automation enabled is 422; vcs_url must be http(s).
// - PATCH with vcs_username or vcs_password stores them and, from detection_needs_auth or
//   auth_failed, runs the import again; with vcs (and tfvc_project) from
//   detection_found_multiple it must name one of project_choices (422 otherwise) and
//   continues with it; vcs outside that state restarts with it; no parameters restarts,
//   from any state, error included ("transitions out of error: not shown").
//   Variations: imports.unlisted-choice-accepted takes a choice not offered and continues
//   with it; imports.restart-from-error-refused answers 422 to a restart of a failed import.
// - project_choices are the world's, in its order; variation imports.project-choices-reversed
//   lists them the other way round (the spec gives no order).
// - A failed import reports failed_step, the name of the phase that failed as its status
//   names it (pushing), and error_message, the source's message. Variations:
//   imports.failed-step-verbs (push, import, map); imports.error-message-key-message (the
//   text under `message`): the spec says only "failed_step and an error message".
// - The phases' durations and how long progress fields are shown: import-progress.ts
//   (variations imports.phase-durations-other, imports.progress-during-phase-only).
// - vcs_password is never returned, logged or sent in a webhook; vcs_username is not
//   returned either.
// - Authors (32) are known once the raw data is fetched (mapping on): before that the list
//   is empty. The answer is a bare array (variation imports.authors-wrapped: {total_count,
//   authors}; "response shape: not shown"), each author {id, remote_id, remote_name, email,
//   name, url, import_url}; ids count from 1 in the source's order; `since` (an id) keeps
//   those after it; anything but digits is 422.
// - RepositoryImportEvent payload: {action: <new status>, import: {vcs, vcs_url, status,
//   status_text, failed_step, error_message, percent, commit_count, push_percent},
//   repository: {id, full_name}}, on every status change (start, PATCH, the clock
//   moving past a phase, DELETE as action "deleted").
// - 503 (maintenance) when the control API injects it: `{"maintenance": N}`.
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { AreaModule } from '../../area.js';
import { onRepository, read, write } from '../../auth/endpoint-access.js';
import { fullName } from '../../directory.js';
import { defineEndpoint } from '../../endpoint.js';
import { ApiError, notFound, validationFailed } from '../../errors.js';
import { queryValue } from '../../query.js';
import { representerFor } from '../../representations.js';
import type { Variants } from '../../variants.js';
import type { WorldRepository } from '../../world-model.js';
import { IMPORT_VCS } from '../../world-schema.js';
import {
  begin,
  catchUp,
  fetched,
  type Import,
  OTHER_PHASES,
  progress,
  type ProgressReading,
  REFERENCE_PHASES,
  type Step,
  STATUS_TEXT,
} from './import-progress.js';

/** The endpoints closed at 00:00 UTC on April 12, 2024 (spec 2, Versioning). */
const RETIRED_AT = Date.UTC(2024, 3, 12);

const IMPORT_SCOPES = { public: ['repo', 'public_repo'], private: ['repo'] } as const;
const CLASSIC = ['classic'] as const;
const IMPORT_READ = onRepository({
  anonymous: false,
  scopes: IMPORT_SCOPES,
  permissions: [read('contents')],
  role: 'push',
  tokenKinds: CLASSIC,
  variations: [{ variant: 'imports.other-tokens-401', tokenKindRefusal: 401 }],
});
const IMPORT_WRITE = onRepository({
  anonymous: false,
  scopes: IMPORT_SCOPES,
  permissions: [write('contents')],
  role: 'push',
  tokenKinds: CLASSIC,
  variations: [{ variant: 'imports.other-tokens-401', tokenKindRefusal: 401 }],
});

const Vcs = Type.Enum(IMPORT_VCS);
const START_BODY = Type.Object(
  {
    vcs_url: Type.String({ minLength: 1, maxLength: 2048 }),
    vcs: Type.Optional(Vcs),
    vcs_username: Type.Optional(Type.String()),
    vcs_password: Type.Optional(Type.String()),
    tfvc_project: Type.Optional(Type.String()),
  },
  { title: 'Import', additionalProperties: false },
);
const UPDATE_BODY = Type.Object(
  {
    vcs_username: Type.Optional(Type.String()),
    vcs_password: Type.Optional(Type.String()),
    vcs: Type.Optional(Vcs),
    tfvc_project: Type.Optional(Type.String()),
    human_name: Type.Optional(Type.String()),
  },
  { title: 'Import', additionalProperties: false },
);

/** The phases' durations and progress fields as the variations switched on read them (import-progress.ts). */
const progressReading = (variants: Variants): ProgressReading => ({
  phases: variants.on('imports.phase-durations-other') ? OTHER_PHASES : REFERENCE_PHASES,
  duringPhaseOnly: variants.on('imports.progress-during-phase-only'),
});

const STEP_VERBS: Record<Step, string> = { importing: 'import', mapping: 'map', pushing: 'push' };

/** failed_step and the message of a failed import, named as the variations switched on name them. */
function failureFields(error: NonNullable<Import['error']>, variants: Variants): Record<string, string> {
  const step = variants.on('imports.failed-step-verbs') ? STEP_VERBS[error.step] : error.step;
  return { failed_step: step, [variants.on('imports.error-message-key-message') ? 'message' : 'error_message']: error.message };
}

const create: AreaModule['create'] = ({ directory, clock, faults, variants, failures, webhooks }) => {
  /** The import of each repository (lower-case full name). */
  let imports = new Map<string, { repository: WorldRepository; imp: Import }>();
  const load = () => {
    imports = new Map();
  };
  load();

  const notify = (repository: WorldRepository, imp: Import, action: string) =>
    webhooks.deliver('repository_import', {
      action,
      import: eventFields(imp),
      repository: { id: repository.id, full_name: fullName(repository) },
    });
  const eventFields = (imp: Import) => ({
    vcs: imp.vcs ?? null,
    vcs_url: imp.vcsUrl,
    status: imp.status,
    status_text: STATUS_TEXT[imp.status],
    failed_step: null,
    error_message: null,
    ...(imp.error && failureFields(imp.error, variants)),
    // As the status was when it changed (the clock may have moved well past it).
    ...progress(imp, imp.since, progressReading(variants)),
  });
  /** Every import catches up with the clock, raising an event per status it passes. */
  const catchUpAll = () => {
    if (faults.on('imports.never-complete')) return;
    const { phases } = progressReading(variants);
    for (const { repository, imp } of imports.values()) catchUp(imp, clock.now(), (status) => notify(repository, imp, status), phases);
  };
  clock.onMove(catchUpAll);

  /** Retired, in maintenance, or the repository's import caught up with the clock. */
  const gate = (repository: WorldRepository) => {
    if (clock.now() >= RETIRED_AT && !faults.on('imports.never-retired'))
      throw new ApiError(410, 'GONE', 'The source import endpoints were retired on 2024-04-12');
    if (failures.take('maintenance')) throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'Source imports are unavailable due to maintenance');
    catchUpAll();
    return imports.get(fullName(repository).toLowerCase());
  };
  const existing = (repository: WorldRepository) => {
    const found = gate(repository);
    if (found === undefined) throw notFound();
    return found.imp;
  };
  const restart = (repository: WorldRepository, imp: Import) => {
    if (faults.on('imports.detection-skipped') && imp.vcs === undefined) imp.vcs = imp.source?.vcs;
    begin(imp, clock.now());
    notify(repository, imp, imp.status);
  };

  /** The projects detection found, in the world's order (or, varied, the other way round). */
  const projectChoices = (imp: Import) => {
    const choices = imp.source?.project_choices ?? [];
    return variants.on('imports.project-choices-reversed') ? [...choices].reverse() : choices;
  };

  function represent(request: FastifyRequest, repository: WorldRepository, imp: Import) {
    const { origin } = representerFor(request, directory);
    const api = `${origin}/repos/${fullName(repository)}`;
    const source = imp.source;
    const known = fetched(imp);
    return {
      vcs: imp.vcs ?? null,
      use_lfs: 'undecided',
      vcs_url: imp.vcsUrl,
      ...(imp.tfvcProject !== undefined && { tfvc_project: imp.tfvcProject }),
      status: imp.status,
      status_text: STATUS_TEXT[imp.status],
      has_large_files: known && source?.large_files !== undefined,
      large_files_size: known ? (source?.large_files?.size_gb ?? 0) : 0,
      large_files_count: known ? (source?.large_files?.count ?? 0) : 0,
      authors_count: known ? (source?.authors.length ?? 0) : 0,
      ...(!faults.on('imports.no-progress') && progress(imp, clock.now(), progressReading(variants))),
      ...(imp.error && !faults.on('imports.failure-hidden') && failureFields(imp.error, variants)),
      ...(imp.status === 'detection_found_multiple' && { project_choices: projectChoices(imp) }),
      ...(faults.on('imports.password-returned') && imp.credentials.password !== undefined && { vcs_password: imp.credentials.password }),
      url: `${api}/import`,
      html_url: `${origin}/${fullName(repository)}/import`,
      authors_url: `${api}/import/authors`,
      repository_url: api,
    };
  }

  const endpoints = [
    defineEndpoint({
      spec: { document: 2, number: 28 },
      id: 'imports.get',
      summary: 'Get an import status',
      method: 'GET',
      path: '/repos/:owner/:repo/import',
      responses: { 200: 'import-progress' },
      access: IMPORT_READ,
      handler: (request, _reply, { repository }) => {
        const progress = represent(request, repository, existing(repository));
        // undefined leaves the field out of the JSON.
        return faults.on('imports.get-without-authors-url') ? { ...progress, authors_url: undefined } : progress;
      },
    }),
    defineEndpoint({
      spec: { document: 2, number: 29 },
      id: 'imports.start',
      summary: 'Start an import',
      method: 'PUT',
      path: '/repos/:owner/:repo/import',
      responses: { 201: 'import-progress' },
      access: IMPORT_WRITE,
      body: START_BODY,
      handler: (request, reply, { repository }) => {
        const { vcs_url: vcsUrl, vcs, vcs_username: username, vcs_password: password, tfvc_project: tfvcProject } = request.body;
        if (repository.workflow_automation && !faults.on('imports.workflow-automation-allowed'))
          throw new ApiError(422, 'VALIDATION_FAILED', 'The repository has workflow automation enabled: source imports are refused');
        if (gate(repository) !== undefined)
          throw new ApiError(422, 'VALIDATION_FAILED', 'An import already exists: update it or delete it first');
        if (!/^https?:\/\/[^/\s]+/i.test(vcsUrl)) throw validationFailed([{ resource: 'Import', field: 'vcs_url', code: 'invalid' }]);
        const source = directory.world.importSources.find((candidate) => candidate.url === vcsUrl);
        const imp: Import = {
          vcsUrl,
          source,
          vcs,
          tfvcProject,
          credentials: { username, password },
          status: 'detecting',
          since: clock.now(),
        };
        imports.set(fullName(repository).toLowerCase(), { repository, imp });
        restart(repository, imp);
        reply.code(faults.on('imports.start-200') ? 200 : 201);
        return represent(request, repository, imp);
      },
    }),
    defineEndpoint({
      spec: { document: 2, number: 30 },
      id: 'imports.update',
      summary: 'Update an import',
      method: 'PATCH',
      path: '/repos/:owner/:repo/import',
      responses: { 200: 'import-progress' },
      access: IMPORT_WRITE,
      body: UPDATE_BODY,
      handler: (request, _reply, { repository }) => {
        const imp = existing(repository);
        const { vcs_username: username, vcs_password: password, vcs, tfvc_project: tfvcProject } = request.body;
        const restarts = username === undefined && password === undefined;
        if (restarts && imp.status === 'error' && variants.on('imports.restart-from-error-refused'))
          throw new ApiError(422, 'VALIDATION_FAILED', 'The import failed and cannot be restarted: delete it and start a new one');
        if (username !== undefined || password !== undefined) {
          if (!faults.on('imports.credentials-ignored'))
            imp.credentials = { username: username ?? imp.credentials.username, password: password ?? imp.credentials.password };
          if (imp.status === 'auth_failed' || imp.status === 'detection_needs_auth') restart(repository, imp);
        } else if (vcs !== undefined) {
          if (imp.status === 'detection_found_multiple') {
            const chosen = imp.source?.project_choices?.find((choice) => choice.vcs === vcs && choice.tfvc_project === tfvcProject);
            if (!chosen && !variants.on('imports.unlisted-choice-accepted'))
              throw validationFailed([{ resource: 'Import', field: 'vcs', code: 'custom', message: 'not one of project_choices' }]);
          }
          imp.vcs = vcs;
          imp.tfvcProject = tfvcProject;
          restart(repository, imp);
        } else if (!faults.on('imports.restart-ignored')) restart(repository, imp);
        return represent(request, repository, imp);
      },
    }),
    defineEndpoint({
      spec: { document: 2, number: 31 },
      id: 'imports.cancel',
      summary: 'Cancel an import',
      method: 'DELETE',
      path: '/repos/:owner/:repo/import',
      responses: { 204: 'empty' },
      access: IMPORT_WRITE,
      handler: (_request, reply, { repository }) => {
        const imp = existing(repository);
        if (!faults.on('imports.delete-ignored')) {
          imports.delete(fullName(repository).toLowerCase());
          notify(repository, imp, 'deleted');
        }
        return reply.code(204).send();
      },
    }),
    defineEndpoint({
      spec: { document: 2, number: 32 },
      id: 'imports.authors',
      summary: 'Get commit authors',
      method: 'GET',
      path: '/repos/:owner/:repo/import/authors',
      responses: { 200: 'json' },
      access: IMPORT_READ,
      handler: (request, _reply, { repository }) => {
        const imp = existing(repository);
        const sinceText = queryValue(request.query, 'since');
        // Any id JSON carries exactly (up to 2^53 - 1); larger or not a number is 422.
        if (sinceText !== undefined && !(/^\d{1,16}$/.test(sinceText) && Number.isSafeInteger(Number(sinceText))))
          throw validationFailed([{ resource: 'Import', field: 'since', code: 'invalid' }]);
        const since = faults.on('imports.authors-since-ignored') ? 0 : Number(sinceText ?? 0);
        const { origin } = representerFor(request, directory);
        const authorsUrl = `${origin}/repos/${fullName(repository)}/import/authors`;
        const names = fetched(imp) ? (imp.source?.authors ?? []) : [];
        const authors = names
          .map((name, index) => ({
            id: index + 1,
            remote_id: name,
            remote_name: name,
            email: `${name.toLowerCase().replace(/[^a-z0-9]+/g, '.')}@${new URL(imp.vcsUrl).hostname}`,
            name,
            url: `${authorsUrl}/${index + 1}`,
            import_url: `${origin}/repos/${fullName(repository)}/import`,
          }))
          .filter((author) => author.id > since);
        return variants.on('imports.authors-wrapped') ? { total_count: authors.length, authors } : authors;
      },
    }),
  ];

  return { name: 'source-imports', endpoints, reset: load, state: () => imports };
};

export const sourceImports = { name: 'source-imports', create } satisfies AreaModule;
