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

  // A conforming run has nothing to annotate.
  const clean = createResultsFixture();
  clean.cases = clean.cases.filter((c) => c.outcome === 'PASS');
  clean.verdict = 'conforming';
  expect(renderGithubAnnotations(clean, PROJECT_ROOT)).toBe('');
});

test('an annotation is placed at a suite file of the workspace only; a file of the package (in its node_modules, or outside the workspace) is named in the message', () => {
  const results = createResultsFixture();
  const failing = results.cases.find((c) => c.outcome === 'FAIL')!;
  failing.source = { file: 'suites/service/assignees/assignees.yaml', line: 42 };
  const first = (workspace: string, packageRoot?: string) => renderGithubAnnotations(results, workspace, packageRoot).split('\n')[0];
  const named = '%0Asuite file: touchstone/suites/service/assignees/assignees.yaml:42';
  const workspace = path.join(os.tmpdir(), 'project');

  // touchstone checked out inside the repository (its own, or a clone in a folder of it): the
  // file is the repository's, relative to the workspace; the message does not name it again.
  expect(first(workspace, path.join(workspace, 'tools', 'touchstone'))).toMatch(
    /^::error file=tools\/touchstone\/suites\/service\/assignees\/assignees.yaml,line=42,title=FAIL /,
  );
  expect(first(workspace, path.join(workspace, 'tools', 'touchstone'))).not.toContain('suite file:');
  // Installed as a package of the project: inside the workspace, but in node_modules, which no
  // commit holds, so GitHub could not show it there. Named, with no file= (the run's summary).
  const installed = first(workspace, path.join(workspace, 'node_modules', 'touchstone'));
  expect(installed).toMatch(/^::error title=FAIL assignees\/single-page-omits-link%3A /);
  expect(installed.endsWith(named)).toBe(true);
  // Installed elsewhere (a global install, a clone beside the repository): the same.
  const elsewhere = first(workspace, path.join(os.tmpdir(), 'elsewhere', 'touchstone'));
  expect(elsewhere).toMatch(/^::error title=FAIL /);
  expect(elsewhere.endsWith(named)).toBe(true);
  // A folder merely named like the workspace's parent is still outside it.
  expect(first(workspace, `${workspace}-other`)).not.toContain('file=');

  // Outside Actions (no $GITHUB_WORKSPACE) the current folder stands in for the workspace.
  const out = new PassThrough();
  writeGithubReport(results, {}, out);
  expect(String(out.read())).toBe(renderGithubAnnotations(results, process.cwd()));
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
