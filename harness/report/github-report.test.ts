// --reporter: the names, and the GitHub output (annotations, escaping, the step summary). The
// whole command with --reporter github: harness/cli/run-reporter.test.ts.
import { expect, test } from '@playwright/test';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { PROJECT_ROOT } from '../core/suite-paths.js';
import { HarnessError } from '../core/errors.js';
import { createResultsFixture } from '../../test-support/results-fixture.js';
import { escapeData, escapeProperty, renderGithubAnnotations, writeGithubReport } from './github-report.js';
import { renderMarkdownSummary } from './markdown-summary.js';
import { DEFAULT_REPORTERS, parseReporters } from './reporters.js';

test('--reporter: repeatable and comma-separated; none named is every file but github; an unknown name is a usage error with a guess', () => {
  expect(parseReporters(undefined)).toEqual(DEFAULT_REPORTERS);
  expect(parseReporters([])).toEqual(['html', 'junit', 'json', 'markdown', 'ctrf']);
  expect(parseReporters(['junit,github', 'html', 'junit'])).toEqual(['junit', 'github', 'html']);
  const refused = (given: string[]) => {
    try {
      parseReporters(given);
    } catch (error) {
      expect(error).toBeInstanceOf(HarnessError);
      expect((error as HarnessError).exitCode).toBe(2);
      return (error as Error).message;
    }
    throw new Error(`${given} was accepted`);
  };
  expect(refused(['htm'])).toBe('--reporter htm is not a reporter (did you mean html?); known: html, junit, json, markdown, ctrf, github');
  expect(refused(['junit,gihtub'])).toContain('--reporter gihtub is not a reporter (did you mean github?)');
  expect(refused(['allure'])).toBe('--reporter allure is not a reporter; known: html, junit, json, markdown, ctrf, github');
  expect(refused(['html,'])).toContain("--reporter '' is not a reporter");
});

test('workflow-command escaping: a message escapes %, CR and LF; a property also : and ,', () => {
  expect(escapeData('100% done\r\nnext: a, b')).toBe('100%25 done%0D%0Anext: a, b');
  expect(escapeProperty('100% done\r\nnext: a, b')).toBe('100%25 done%0D%0Anext%3A a%2C b');
  // %25 first: an escape already in the text is not read back as the character.
  expect(escapeData('%0A')).toBe('%250A');
});

test('annotations: ::error at the suite file and line of each FAIL and ERROR, ::warning for WARN, none for the rest; the verdict last', () => {
  const results = createResultsFixture();
  const failing = results.cases.find((c) => c.outcome === 'FAIL')!;
  failing.source = { file: 'suites/service/assignees/assignees.yaml', line: 42 };
  // A message a target wrote cannot end the command nor start another one.
  failing.message = 'expected no link header\n::set-env name=PATH::/evil\r\n100%';
  const lines = renderGithubAnnotations(results, PROJECT_ROOT).trimEnd().split('\n');
  const byOutcome = results.cases.filter((c) => ['FAIL', 'ERROR', 'WARN'].includes(c.outcome));
  expect(lines).toHaveLength(byOutcome.length + 1);
  expect(lines[0]).toBe(
    `::error file=suites/service/assignees/assignees.yaml,line=42,title=FAIL assignees/single-page-omits-link%3A ${failing.title.replace(/,/g, '%2C')}::expected no link header%0A::set-env name=PATH::/evil%0D%0A100%25${failing.rerun ? `%0Arun again: ${failing.rerun}` : ''}`,
  );
  for (const line of lines) expect(line).toMatch(/^::(error|warning) /);
  const warn = results.cases.find((c) => c.outcome === 'WARN')!;
  expect(lines.find((l) => l.includes(`title=WARN ${warn.id}`))).toMatch(/^::warning title=WARN /);
  // No source (a case built in code, or results of an older touchstone): no file, still an annotation.
  expect(lines.find((l) => l.includes('title=ERROR '))).toMatch(/^::error title=ERROR /);
  for (const quiet of results.cases.filter((c) => ['PASS', 'SKIP', 'XFAIL'].includes(c.outcome)))
    expect(lines.some((l) => l.includes(quiet.id))).toBe(false);
  expect(lines.at(-1)).toBe('::error title=touchstone%3A non-conforming::a MUST requirement is broken');

  // A suite file outside the workspace (touchstone installed elsewhere) is not named.
  expect(renderGithubAnnotations(results, path.join(os.tmpdir(), 'elsewhere')).split('\n')[0]).toMatch(/^::error title=FAIL /);
  // A conforming run has nothing to annotate.
  const clean = createResultsFixture();
  clean.cases = clean.cases.filter((c) => c.outcome === 'PASS');
  clean.verdict = 'conforming';
  expect(renderGithubAnnotations(clean, PROJECT_ROOT)).toBe('');
});

test('the step summary is summary.md appended to $GITHUB_STEP_SUMMARY, never overwriting what earlier steps wrote; one that cannot be written is said and the run goes on', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-github-'));
  const summary = path.join(dir, 'step_summary');
  writeFileSync(summary, '## an earlier step\n');
  const results = createResultsFixture();
  const out = new PassThrough();
  writeGithubReport(results, { GITHUB_STEP_SUMMARY: summary, GITHUB_WORKSPACE: PROJECT_ROOT }, out);
  writeGithubReport(results, { GITHUB_STEP_SUMMARY: summary, GITHUB_WORKSPACE: PROJECT_ROOT }, new PassThrough());
  const markdown = renderMarkdownSummary(results);
  expect(readFileSync(summary, 'utf8')).toBe(`## an earlier step\n${markdown}\n${markdown}\n`);
  expect(String(out.read())).toContain('::error ');
  // Unwritable: said on stderr, the run goes on (no throw).
  expect(() => writeGithubReport(results, { GITHUB_STEP_SUMMARY: dir }, new PassThrough())).not.toThrow();
});
