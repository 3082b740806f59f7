// The Import status machine of spec 2, on the service clock. An import is in one phase at
// a time, entered at an instant; the running phases end after a fixed time and what comes
// next depends on the world's source at the URL (world `import_sources`): detection finds
// its vcs, several projects, nothing, or that it needs credentials; importing fetches its
// commits (progress in percent and commit_count), mapping rewrites them, pushing sends them
// (push_percent), then the import is complete. A source can fail at a step (error, with
// failed_step). State is worked out lazily from the clock, so any reader, at any time,
// sees the same history.
//
// Decisions where the spec is silent (README "Source imports"): detecting lasts 60 s,
// importing 300 s, mapping 60 s, pushing 120 s (variation imports.phase-durations-other:
// 150, 90, 240 and 30 s, endpoints.ts picks them). Progress is linear in a phase's time;
// commit_count stays once importing is over and percent and push_percent read 100 at
// complete (variation imports.progress-during-phase-only: each only during its phase, as
// "(during importing)" and "(during pushing)" can be read). A source that needs credentials answers
// detection_needs_auth during detection, or auth_failed when importing starts (vcs given),
// unless the import holds its username and password. A URL no source answers is
// detection_found_nothing, or (vcs given) an error at importing.
import type { WorldImportSource } from '../../world-model.js';
import type { IMPORT_STEPS, IMPORT_VCS } from '../../world-schema.js';

export type Vcs = (typeof IMPORT_VCS)[number];
export type Step = (typeof IMPORT_STEPS)[number];
export type Status =
  | 'detecting'
  | 'importing'
  | 'mapping'
  | 'pushing'
  | 'complete'
  | 'detection_found_nothing'
  | 'detection_found_multiple'
  | 'detection_needs_auth'
  | 'auth_failed'
  | 'error';

/** How long each running phase takes, in ms (the spec gives no durations). */
export type PhaseDurations = Readonly<Record<'detecting' | 'importing' | 'mapping' | 'pushing', number>>;

export const REFERENCE_PHASES: PhaseDurations = { detecting: 60_000, importing: 300_000, mapping: 60_000, pushing: 120_000 };
/** Variation imports.phase-durations-other: detection and mapping slower, importing and pushing faster. */
export const OTHER_PHASES: PhaseDurations = { detecting: 150_000, importing: 90_000, mapping: 240_000, pushing: 30_000 };

const lengthOf = (status: Status, phases: PhaseDurations): number | undefined =>
  status in phases ? phases[status as keyof PhaseDurations] : undefined;

export interface Import {
  vcsUrl: string;
  source: WorldImportSource | undefined;
  vcs: Vcs | undefined;
  tfvcProject: string | undefined;
  credentials: { username?: string; password?: string };
  status: Status;
  /** When the current phase began. */
  since: number;
  error?: { step: Step; message: string };
}

/** A new import (PUT, or PATCH restarting it): detection first unless the vcs is known. */
export function begin(imp: Import, at: number): void {
  delete imp.error;
  enter(imp, imp.vcs === undefined ? 'detecting' : 'importing', at);
}

/**
 * Moves the import through every phase that has ended by `now`, calling `changed` on each
 * new status in order.
 */
export function catchUp(imp: Import, now: number, changed: (status: Status) => void, phases: PhaseDurations = REFERENCE_PHASES): void {
  for (;;) {
    const length = lengthOf(imp.status, phases);
    if (length === undefined || now < imp.since + length) return;
    const at = imp.since + length;
    const next =
      imp.status === 'detecting'
        ? detected(imp)
        : imp.status === 'importing'
          ? 'mapping'
          : imp.status === 'mapping'
            ? 'pushing'
            : 'complete';
    if (imp.status === 'detecting' && next === 'importing') imp.vcs = imp.source?.vcs;
    enter(imp, next, at);
    changed(imp.status);
  }
}

function detected(imp: Import): Status {
  const { source } = imp;
  if (source === undefined) return 'detection_found_nothing';
  if (source.credentials && !holdsCredentials(imp)) return 'detection_needs_auth';
  if (source.project_choices) return 'detection_found_multiple';
  return 'importing';
}

/** Enters a phase at `at`; a step the source fails at, or a connection it refuses, ends there. */
function enter(imp: Import, status: Status, at: number): void {
  imp.since = at;
  imp.status = status;
  if (status === 'importing' && imp.source === undefined) fail(imp, 'importing', `nothing to import at ${imp.vcsUrl}`);
  else if (status === 'importing' && imp.source?.credentials && !holdsCredentials(imp)) imp.status = 'auth_failed';
  else if (imp.source?.failure?.step === status) fail(imp, imp.source.failure.step, imp.source.failure.message);
}

function fail(imp: Import, step: Step, message: string): void {
  imp.status = 'error';
  imp.error = { step, message };
}

const holdsCredentials = ({ source, credentials }: Import) =>
  source?.credentials?.username === credentials.username && source?.credentials?.password === credentials.password;

/** Whether the raw data has been fetched (authors, large files and the commit count are known). */
export const fetched = (imp: Import) =>
  ['mapping', 'pushing', 'complete'].includes(imp.status) || (imp.status === 'error' && imp.error?.step !== 'importing');

/** How the progress fields are reported: during their phase and after (the reference), or during their phase only. */
export interface ProgressReading {
  phases: PhaseDurations;
  duringPhaseOnly: boolean;
}

const REFERENCE_READING: ProgressReading = { phases: REFERENCE_PHASES, duringPhaseOnly: false };

/** The progress fields of the current phase at `now` (a running phase's share done). */
export function progress(imp: Import, now: number, reading: ProgressReading = REFERENCE_READING): Record<string, number> {
  const done = (status: 'importing' | 'pushing') => Math.min(1, Math.max(0, (now - imp.since) / reading.phases[status]));
  const commits = imp.source?.commits ?? 0;
  switch (imp.status) {
    case 'importing':
      return { percent: Math.floor(100 * done('importing')), commit_count: Math.floor(commits * done('importing')) };
    case 'pushing':
      return reading.duringPhaseOnly
        ? { push_percent: Math.floor(100 * done('pushing')) }
        : { commit_count: commits, push_percent: Math.floor(100 * done('pushing')) };
    case 'complete':
      return reading.duringPhaseOnly ? {} : { commit_count: commits, percent: 100, push_percent: 100 };
    default:
      return {};
  }
}

export const STATUS_TEXT: Record<Status, string> = {
  detecting: 'Detecting source',
  importing: 'Importing commits',
  mapping: 'Rewriting history',
  pushing: 'Pushing to the repository',
  complete: 'Done',
  detection_found_nothing: 'No source repository was found at the URL',
  detection_found_multiple: 'Several projects were found at the URL: choose one',
  detection_needs_auth: 'The source needs a username and password',
  auth_failed: 'The source refused the credentials',
  error: 'The import failed',
};
