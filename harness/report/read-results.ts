// Reads a results.json back (for `touchstone report merge|compare|open`): a run's report
// folder or the file itself, checked against the published schema so a truncated or
// hand-edited document is a clear error, not a wrong comparison.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { HarnessError } from '../core/errors.js';
import type { Results } from '../core/results.js';
import { REPORT_FILES, validateResults } from './write-reports.js';

/** DIR/results.json, or the file itself when `given` is one. */
export function resultsFile(given: string): string {
  const file = existsSync(given) && statSync(given).isDirectory() ? path.join(given, REPORT_FILES.results) : given;
  if (!existsSync(file))
    throw new HarnessError('USAGE', `${given}: no ${REPORT_FILES.results} there (give a report folder of touchstone run, or the file)`);
  return file;
}

export function readResults(given: string): Results {
  const file = resultsFile(given);
  let data: { format?: unknown };
  try {
    data = JSON.parse(readFileSync(file, 'utf8')) as { format?: unknown };
  } catch (error) {
    throw new HarnessError('CONFIG', `${file} is not JSON: ${(error as Error).message}`);
  }
  if (data?.format !== 'touchstone-results/2')
    throw new HarnessError(
      'CONFIG',
      `${file} is ${JSON.stringify(data?.format)}, not touchstone-results/2: run it again with this touchstone`,
    );
  try {
    validateResults(data as Results);
  } catch (error) {
    throw new HarnessError('CONFIG', `${file}: ${(error as Error).message}`);
  }
  return data as Results;
}
