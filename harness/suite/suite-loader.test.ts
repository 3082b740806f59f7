import { expect, test } from '@playwright/test';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HarnessError } from '../core/errors.js';
import { loadSchemaRegistry } from '../http/schema-registry.js';
import { listYamlFiles, loadRequirementRegistry } from '../core/requirement-registry.js';
import { lintSuites, loadSuites } from './suite-loader.js';
import { selectCases } from '../core/select-cases.js';
import { suitePaths } from '../core/suite-paths.js';
import { readWorldTokens } from './world-tokens.js';

const registry = loadRequirementRegistry(suitePaths.requirements);
const lintContext = { registry, schemas: loadSchemaRegistry(suitePaths.schemas), roles: new Set(['anonymous', 'repo-admin']) };

/** A suites folder holding one area, `sample`, whose files are given by name (one `sample.yaml` for a string). */
function suiteDir(files: string | Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-suite-'));
  mkdirSync(path.join(dir, 'sample'));
  for (const [name, yaml] of Object.entries(typeof files === 'string' ? { 'sample.yaml': files } : files))
    writeFileSync(path.join(dir, 'sample', name), yaml);
  return dir;
}

const GOOD_STEP = `      - request: { method: GET, path: /x }
        expect: { status: 200 }`;

test('the project suites load and lint clean', () => {
  const suites = loadSuites(suitePaths.service);
  // One suite per area that has endpoints, and the cross-cutting conventions.
  const areas = listYamlFiles(suitePaths.endpoints).map((file) => path.basename(file, '.yaml'));
  expect(suites.map((s) => s.name).sort()).toEqual(['conventions', ...areas].sort());
  const roles = new Set(['anonymous', ...Object.keys(readWorldTokens())]);
  expect(lintSuites(suites, { ...lintContext, roles })).toEqual([]);
});

test('a case without requirements fails validation, naming the file and the path', () => {
  const dir = suiteDir(`cases:\n  - id: a\n    title: a case without requirements\n    steps:\n${GOOD_STEP}\n`);
  expect(() => loadSuites(dir)).toThrow(/sample\.yaml: invalid: .*\/cases\/0 must have required property 'requirements'/);
  const empty = suiteDir(`cases:\n  - id: a\n    title: a case with an empty list\n    requirements: []\n    steps:\n${GOOD_STEP}\n`);
  expect(() => loadSuites(empty)).toThrow(/\/cases\/0\/requirements must NOT have fewer than 1 items/);
});

test('schema and YAML errors give the line and column where the user must look', () => {
  const missing = suiteDir(`cases:\n  - id: a\n    title: a case without requirements\n    steps:\n${GOOD_STEP}\n`);
  expect(() => loadSuites(missing)).toThrow(/sample\.yaml: invalid: line 2:5: \/cases\/0 must have required property 'requirements'/);
  const typo = suiteDir(`cases:\n  - id: a\n    title: t\n    requirements: [assignees.list]\n    stpes: []\n`);
  expect(() => loadSuites(typo)).toThrow(/line 5:5: \/cases\/0 must NOT have additional properties \(stpes\)/);
  expect(() => loadSuites(suiteDir('cases:\n  - id: a\n    id: b\n'))).toThrow(/sample\.yaml:3:5: not valid YAML: Map keys must be unique/);
});

test('the lint names unknown requirements, schemas and roles, duplicates and undeclared clock use', () => {
  const dir = suiteDir(`cases:
  - id: a
    title: cites a requirement nobody wrote
    requirements: [no.such-requirement]
    as: ghost
    steps:
      - request: { method: GET, path: /x }
        expect: { status: 200, schema: no-such-schema }
      - clock: { advance_seconds: 5 }
  - id: a
    title: cites a requirement nobody wrote
    requirements: [auth.bearer-scheme]
    steps:
${GOOD_STEP}
`);
  expect(lintSuites(loadSuites(dir), lintContext)).toEqual([
    'sample/sample.yaml case a: unknown requirement no.such-requirement',
    'sample/sample.yaml case a: duplicate id',
    'sample/sample.yaml case a: duplicate title',
    'sample/sample.yaml case a: unknown schema no-such-schema',
    'sample/sample.yaml case a: unknown role ghost',
    'sample/sample.yaml case a: has a step that needs control.clock but does not declare requires: [control.clock]',
  ]);
});

test('an area folder is one suite: its files in name order, ids unique across them, each case traced to its file', () => {
  const one = (id: string, title: string) =>
    `cases:\n  - id: ${id}\n    title: ${title}\n    requirements: [auth.bearer-scheme]\n    steps:\n${GOOD_STEP}\n`;
  const dir = suiteDir({ 'b-more.yaml': one('b', 'the second file of the area'), 'a-first.yaml': one('a', 'the first file of the area') });
  const [suite] = loadSuites(dir);
  expect(suite.name).toBe('sample');
  expect(suite.cases.map((c) => c.id)).toEqual(['a', 'b']);
  expect(path.basename(suite.fileOf.get('b') ?? '')).toBe('b-more.yaml');
  expect(
    lintSuites(
      loadSuites(suiteDir({ 'x.yaml': one('a', 'a title of the first'), 'y.yaml': one('a', 'a title of the second') })),
      lintContext,
    ),
  ).toEqual(['sample/x.yaml case a: duplicate id']);
});

test('a suite file outside an area folder, and an area folder without files, are refused by name', () => {
  const dir = suiteDir({});
  writeFileSync(path.join(dir, 'loose.yaml'), 'cases: []\n');
  expect(() => loadSuites(dir)).toThrow(/loose\.yaml must be in an area folder/);
  expect(() => loadSuites(suiteDir({}))).toThrow(/sample: an area folder with no cases/);
});

test('the lint checks every ${name} against the captures of earlier steps, and helpers by name and argument', () => {
  const dir = suiteDir(`cases:
  - id: redirect
    title: follows a download redirect
    requirements: [auth.bearer-scheme]
    steps:
      - request: { method: GET, url: '\${location}' }
        expect: { status: 200 }
      - request: { method: GET, path: /download }
        expect: { status: 302, capture: { location: header.location, digest: bytes.sha256 } }
      - request: { method: GET, url: '\${location}' }
        expect: { bytes: { sha256: '\${digest}', archive: { format: zip, entries: [{ path: a.txt, size: 3 }] } } }
      - request: { method: PUT, path: /secret, body: { value: { $sealed_box: { public_key: '\${key}' } } } }
        expect: { status: 201 }
    cleanup:
      - request: { method: DELETE, url: '\${location}' }
        expect: { status: 204 }
`);
  expect(lintSuites(loadSuites(dir), lintContext)).toEqual([
    'sample/sample.yaml case redirect: step 1: ${location} is not captured by an earlier step',
    'sample/sample.yaml case redirect: step 4: helper $sealed_box takes { public_key: <Base64>, message: <text> }',
    'sample/sample.yaml case redirect: step 4: ${key} is not captured by an earlier step',
  ]);
  const both = suiteDir(`cases:\n  - id: a\n    title: a request with a path and a url\n    requirements: [auth.bearer-scheme]\n    steps:
      - request: { method: GET, path: /x, url: /y }\n        expect: { status: 200 }\n`);
  expect(() => loadSuites(both)).toThrow(
    /sample\.yaml: invalid: line 6:18: .*\/cases\/0\/steps\/0\/request must match exactly one schema in oneOf/,
  );
});

test('malformed YAML and an unknown suite name are clear errors, not crashes', () => {
  expect(() => loadSuites(suiteDir('cases: [\n  - id: a'))).toThrow(HarnessError);
  expect(() => loadSuites(suiteDir('cases: [\n  - id: a'))).toThrow(/sample\.yaml:2:3: not valid YAML/);
  expect(() => loadSuites(suitePaths.service, ['nope'])).toThrow(/unknown suite nope; known: (.*, )?assignees, (.*, )?conventions, /);
});

test('--only and --grep select cases by <suite>/<case id> (grep also by title); what selects nothing is a usage error', () => {
  const suites = loadSuites(suitePaths.service);
  const keys = (selected: ReturnType<typeof selectCases>) => selected.flatMap((s) => s.cases.map((c) => `${s.name}/${c.id}`));
  expect(keys(selectCases(suites, { only: ['assistant/billing', 'variables/get'] }))).toEqual(['assistant/billing', 'variables/get']);
  expect(keys(selectCases(suites, { only: [], grep: '^devenv-secrets/(?!.*--)[a-z-]*key$' }))).toEqual([
    'devenv-secrets/public-key',
    'devenv-secrets/stale-key',
  ]);
  expect(keys(selectCases(suites, { only: ['assistant/billing'], grep: 'never appears anywhere' }))).toEqual(['assistant/billing']);
  expect(selectCases(suites, { only: [] })).toBe(suites);
  expect(() => selectCases(suites, { only: ['assistant/nope'] })).toThrow(/--only names no case: assistant\/nope/);
  expect(() => selectCases(suites, { only: [], grep: '(' })).toThrow(/--grep is not a regular expression/);
  expect(() => selectCases(suites, { only: [], grep: 'zzzz' })).toThrow(/--grep zzzz matches no case/);
});

test('--grep-invert leaves out the cases whose <suite>/<case id> or title matches, after --only and --grep; leaving none is a usage error', () => {
  const suites = loadSuites(suitePaths.service);
  const keys = (selected: ReturnType<typeof selectCases>) => selected.flatMap((s) => s.cases.map((c) => `${s.name}/${c.id}`));
  const all = keys(suites);
  const inverted = keys(selectCases(suites, { only: [], grepInvert: '^devenv-secrets/' }));
  expect(inverted).toEqual(all.filter((key) => !key.startsWith('devenv-secrets/')));
  expect(keys(selectCases(suites, { only: [], grep: '^devenv-secrets/', grepInvert: 'stale' }))).not.toContain('devenv-secrets/stale-key');
  expect(keys(selectCases(suites, { only: [], grep: '^devenv-secrets/(?!.*--)[a-z-]*key$', grepInvert: 'stale' }))).toEqual([
    'devenv-secrets/public-key',
  ]);
  // By title too.
  const title = suites[0].cases[0].title;
  expect(keys(selectCases(suites, { only: [], grepInvert: `^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$` }))).toEqual(
    all.filter((key) => key !== `${suites[0].name}/${suites[0].cases[0].id}`),
  );
  expect(keys(selectCases(suites, { only: ['assistant/billing', 'variables/get'], grepInvert: 'billing' }))).toEqual(['variables/get']);
  expect(() => selectCases(suites, { only: [], grepInvert: '[' })).toThrow(/--grep-invert is not a regular expression/);
  expect(() => selectCases(suites, { only: [], grepInvert: '.' })).toThrow(/--grep-invert \. leaves no case to run/);
  expect(() => selectCases(suites, { only: [], grep: '^variables/', grepInvert: '^variables/' })).toThrow(
    /--grep \^variables\/ with --grep-invert \^variables\/ leaves no case to run/,
  );
});
