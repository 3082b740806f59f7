// Writes the four report files of a run. results.json is validated against its schema
// first: a harness bug must not produce a document CI systems then trust.
import { fileURLToPath } from 'node:url';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../core/write-file-atomic.js';
import { HarnessError } from '../core/errors.js';
import { compileSchemaFile, createAjv } from '../core/validated-file.js';
import { describeSchemaErrors } from '../../lib/located-yaml.js';
import { renderHtmlReport } from './html-report.js';
import { renderJunit } from './junit-report.js';
import { renderMarkdownSummary } from './markdown-summary.js';
import type { Results } from '../core/results.js';

export const REPORT_FILES = { results: 'results.json', junit: 'junit.xml', html: 'report.html', summary: 'summary.md' } as const;

export function validateResults(results: Results): void {
  const validate = compileSchemaFile(createAjv(), fileURLToPath(new URL('./results.schema.json', import.meta.url)));
  if (!validate(results))
    throw new HarnessError('CONFIG', `results.json does not match its schema: ${describeSchemaErrors(validate.errors)}`);
}

export function writeReports(outDir: string, results: Results): void {
  validateResults(results);
  mkdirSync(outDir, { recursive: true });
  writeFileAtomic(path.join(outDir, REPORT_FILES.junit), renderJunit(results));
  writeFileAtomic(path.join(outDir, REPORT_FILES.html), renderHtmlReport(results));
  writeFileAtomic(path.join(outDir, REPORT_FILES.summary), renderMarkdownSummary(results));
  // Last: its presence tells the CLI the run completed.
  writeFileAtomic(path.join(outDir, REPORT_FILES.results), `${JSON.stringify(results, null, 2)}\n`);
}
