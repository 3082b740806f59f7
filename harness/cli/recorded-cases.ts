// What a `run --record` folder holds: the cases its recordings were made for, and which of them
// have a cassette. A replay judges what was recorded (run.ts), so it needs to know both:
//
// - `_run/cases.json` lists every case a recording run into the folder selected, written before
//   its first case runs, and whether one of those runs selected the whole catalogue. A case it
//   lists that has no cassette is a hole: the run that was to record it stopped first (Ctrl-C, a
//   crash) or the case was ERROR (run --record keeps a case's cassette only once the case reached
//   an outcome). A replay runs it, and its requests are misses: ERROR, never a pass.
// - Every `<suite>/<case>.cassette.json` counts as recorded too: folders made before the list
//   existed, or assembled by hand, still replay.
//
// Decisions where the issue is silent:
// - Recording into a folder adds the run's cases to the list; only a run of the whole catalogue
//   (which also removes the cassettes of cases gone from it) replaces it.
// - The list is sorted and holds no time, so recording the same cases again leaves it byte for
//   byte as it was (the committed recordings are re-recorded and compared in the tests).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { HarnessError } from '../core/errors.js';
import { writeFileAtomic } from '../core/write-file-atomic.js';
import { CASSETTE_SUFFIX } from '../cassette/cassette-format.js';
import { makeDirectory } from '../../lib/make-directory.js';

/** The folder, within a recordings folder, of what belongs to the run rather than to a case. */
export const RUN_FOLDER = '_run';
const CASES_FILE = path.join(RUN_FOLDER, 'cases.json');

export interface RecordedCases {
  /** The cases the recording runs selected (the list), and those with a cassette. */
  cases: Set<string>;
  /** Listed cases without a cassette: what the recording lacks. */
  holes: string[];
  /** A recording run selected the whole catalogue: a replay of it judges every requirement. */
  whole: boolean;
}

interface CasesList {
  whole: boolean;
  cases: string[];
}

/** Adds the cases a recording run is about to record to the folder's list (replacing it for a whole run). */
export function listRecordedCases(dir: string, cases: string[], whole: boolean): void {
  const before = whole ? undefined : readList(dir);
  const list: CasesList = {
    whole: whole || before?.whole === true,
    cases: [...new Set([...(before?.cases ?? []), ...cases])].sort(),
  };
  const file = path.join(dir, CASES_FILE);
  const text = `${JSON.stringify(list, null, 2)}\n`;
  if (existsSync(file) && readFileSync(file, 'utf8') === text) return;
  makeDirectory(path.dirname(file));
  writeFileAtomic(file, text);
}

/** The cases `dir` holds cassettes of, as `<suite>/<case>` (the run's own, in RUN_FOLDER, are none). */
export function recordedCassettes(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((entry) => entry.endsWith(CASSETTE_SUFFIX) && !entry.startsWith(`${RUN_FOLDER}${path.sep}`))
    .map((entry) => entry.slice(0, -CASSETTE_SUFFIX.length).split(path.sep).join('/'));
}

/** What `dir` holds recordings of. */
export function readRecordedCases(dir: string): RecordedCases {
  const list = readList(dir);
  const cassettes = new Set(recordedCassettes(dir));
  const listed = list?.cases ?? [];
  return {
    cases: new Set([...listed, ...cassettes]),
    holes: listed.filter((id) => !cassettes.has(id)),
    whole: list?.whole === true,
  };
}

function readList(dir: string): CasesList | undefined {
  const file = path.join(dir, CASES_FILE);
  if (!existsSync(file)) return undefined;
  let list: unknown;
  try {
    list = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new HarnessError('CONFIG', `${file}: not JSON (${(error as Error).message}); record into the folder again to rewrite it`);
  }
  const { whole, cases } = (list ?? {}) as Partial<CasesList>;
  if (typeof whole !== 'boolean' || !Array.isArray(cases) || !cases.every((id) => typeof id === 'string'))
    throw new HarnessError(
      'CONFIG',
      `${file}: not a list of recorded cases ({"whole": boolean, "cases": ["suite/case", …]}); record into the folder again to rewrite it`,
    );
  return { whole, cases };
}
