// Where each loaded case is written: its suite file and the line its entry starts on. The suite
// loaders note it as they read a file; the facts of a case (results.json's `source`) take it
// from here, so reports can point at the case (GitHub annotations: report/github-report.ts).
// Keyed by the case object the loader returned, so nothing is added to the case itself.
import path from 'node:path';
import type { LineOf } from '../../lib/located-yaml.js';
import type { CaseSource } from './results.js';
import { PROJECT_ROOT } from './suite-paths.js';

const sources = new WeakMap<object, CaseSource>();

/** `file` as sources name it: relative to touchstone's root with '/' separators, the same on every machine and system. */
export const sourceFile = (file: string): string => path.relative(PROJECT_ROOT, path.resolve(file)).split(path.sep).join('/');

/** Notes where each of `cases` (the `cases` list of `file`, in its order) is written. */
export function noteCaseSources(file: string, cases: readonly object[], lineOf: LineOf): void {
  const relative = sourceFile(file);
  cases.forEach((testCase, i) => {
    const line = lineOf(['cases', i]);
    if (line !== undefined) sources.set(testCase, { file: relative, line });
  });
}

/** Notes where a case generated from something written elsewhere comes from (a catalogue entry). */
export function noteGeneratedSource(testCase: object, source: CaseSource | undefined): void {
  if (source) sources.set(testCase, source);
}

/** Where `testCase` is written, when a loader noted it. */
export function caseSourceOf(testCase: object): CaseSource | undefined {
  return sources.get(testCase);
}
