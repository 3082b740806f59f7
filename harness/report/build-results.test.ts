import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { exitCodeOf } from '../core/exit-code.js';
import { sha256 } from '../core/fingerprint.js';
import type { Requirement } from '../core/suite-format.js';
import { buildResults, caseResult } from './build-results.js';
import { REPRO_FILE, writeReports } from './write-reports.js';
import type { CaseOutcome, CaseResult } from '../core/results.js';

const requirement = (id: string, level: Requirement['level'] = 'MUST'): Requirement => ({
  id,
  level,
  basis: 'quoted',
  source: 's',
  quote: 'q',
});
const FINGERPRINT = { suites: sha256('s'), requirements: sha256('r'), config: sha256('c') };
const REQUIREMENTS = [requirement('r.a'), requirement('r.b'), requirement('r.should', 'SHOULD')];
const facts = { suite: 's', title: 't', level: 'MUST' as const, endpoints: [], aspects: [] };
const run = (id: string, requirements: string[], found: CaseOutcome): CaseResult =>
  caseResult({ ...facts, id: `s/${id}`, requirements }, found, { started_at: new Date(0).toISOString(), duration_ms: 1 });
const broken = (requirement: string, outcome: 'FAIL' | 'WARN' | 'XFAIL', extra: Partial<CaseOutcome> = {}): CaseOutcome => ({
  outcome,
  message: 'm',
  failure: { requirement, expected: 'e', actual: 'a' },
  broken: [requirement],
  ...extra,
});
const build = (cases: CaseResult[], strict = false) =>
  buildResults(cases, REQUIREMENTS, {
    kind: 'service',
    target: { url: 'u', embedded: false },
    startedAt: new Date(0),
    finishedAt: new Date(1),
    strict,
    version: 'v',
    fingerprint: FINGERPRINT,
    suites: [],
  });
const statuses = (cases: CaseResult[]) => Object.fromEntries(build(cases).requirements.map((r) => [r.id, r.status]));

test('conforming: every MUST requirement checked and held; a broken SHOULD only warns', () => {
  const results = build([run('a', ['r.a', 'r.should'], broken('r.should', 'WARN')), run('b', ['r.b'], { outcome: 'PASS' })]);
  expect(results.verdict).toBe('conforming');
  expect(statuses(results.cases)).toEqual({ 'r.a': 'PASS', 'r.b': 'PASS', 'r.should': 'WARN' });
  expect(exitCodeOf(results)).toBe(0);
});

test('incomplete: a MUST requirement whose only case was skipped, or whose case stopped before it, or ran part of its rows', () => {
  const skipped = build([
    run('a', ['r.a'], { outcome: 'PASS' }),
    run('b', ['r.b'], { outcome: 'SKIP', message: 'no token', missing: { roles: ['x'] } }),
  ]);
  expect(skipped).toMatchObject({ verdict: 'incomplete', gaps: { untested: ['r.b'], roles: ['x'], capabilities: [], errors: [] } });
  expect(skipped.requirements[1]).toMatchObject({ status: 'UNTESTED', missing: { roles: ['x'] } });
  expect(exitCodeOf(skipped)).toBe(4);
  expect(exitCodeOf(skipped, true)).toBe(0);
  const partial = build([
    run('a', ['r.a', 'r.b'], { outcome: 'PASS', message: 'rows', unverified: ['r.a', 'r.b'], missing: { roles: ['y'] } }),
    run('b', ['r.b'], { outcome: 'PASS' }),
  ]);
  expect(partial.gaps).toEqual({ untested: ['r.a'], roles: ['y'], capabilities: [], errors: [] });
  // r.b was checked by another case: only r.a is left.
  expect(statuses(partial.cases)).toEqual({ 'r.a': 'UNTESTED', 'r.b': 'PASS', 'r.should': 'UNTESTED' });
});

test('an ERROR makes the run incomplete, and --allow-incomplete does not forgive it', () => {
  const results = build([run('a', ['r.a', 'r.b'], { outcome: 'PASS' }), run('e', ['r.a'], { outcome: 'ERROR', message: 'reset' })]);
  expect(results).toMatchObject({ verdict: 'incomplete', gaps: { untested: [], errors: ['s/e'] } });
  expect(exitCodeOf(results, true)).toBe(4);
});

test('non-conforming: a broken MUST, also when the baseline lists it; only the failing requirement is blamed', () => {
  const failed = build([run('a', ['r.a', 'r.b'], broken('r.a', 'FAIL', { unverified: ['r.b'] })), run('b', ['r.b'], { outcome: 'PASS' })]);
  expect(failed.verdict).toBe('non-conforming');
  expect(statuses(failed.cases)).toEqual({ 'r.a': 'FAIL', 'r.b': 'PASS', 'r.should': 'UNTESTED' });
  expect(exitCodeOf(failed)).toBe(1);
  const known = build([run('a', ['r.a'], broken('r.a', 'XFAIL')), run('b', ['r.b'], { outcome: 'PASS' })]);
  expect(known.verdict).toBe('non-conforming');
  expect(exitCodeOf(known)).toBe(0);
  const knownShould = build([run('a', ['r.a', 'r.b', 'r.should'], broken('r.should', 'XFAIL'))]);
  expect(knownShould.verdict).toBe('conforming');
});

test('a stale baseline entry fails the run (exit 1) without calling the target non-conforming', () => {
  const stale = build([run('a', ['r.a', 'r.b'], { outcome: 'FAIL', message: 'stale baseline entry: the case passes now' })]);
  expect(stale.verdict).toBe('conforming');
  expect(exitCodeOf(stale)).toBe(1);
});

test('--strict: a broken SHOULD fails the run', () => {
  const results = build([run('a', ['r.a', 'r.b', 'r.should'], broken('r.should', 'FAIL'))], true);
  expect(results.verdict).toBe('non-conforming');
});

test('each case that did not pass gets the command that runs it again; repro.sh lists them and goes when none is left', () => {
  const cases = [
    run('ok', ['r.a'], { outcome: 'PASS' }),
    run(
      "it's broken",
      ['r.b'],
      broken('r.b', 'FAIL', { failure: { requirement: 'r.b', expected: 'e', actual: 'a', reproduce: "curl -X GET 'u/x'" } }),
    ),
  ];
  const results = buildResults(cases, REQUIREMENTS, {
    kind: 'service',
    target: { url: 'u', embedded: false },
    startedAt: new Date(0),
    finishedAt: new Date(1),
    strict: false,
    version: 'v',
    fingerprint: FINGERPRINT,
    suites: [],
    rerun: 'npx touchstone run --target http://impl.test',
  });
  expect(results.cases[0].rerun).toBeUndefined();
  expect(results.cases[1].rerun).toBe(`npx touchstone run --target http://impl.test --only 's/it'\\''s broken'`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-repro-'));
  try {
    writeReports(dir, results);
    const script = readFileSync(path.join(dir, REPRO_FILE), 'utf8');
    expect(script).toContain(`# s/it's broken: FAIL (r.b)\n${results.cases[1].rerun}\n#   expected e, got a\n#   curl -X GET 'u/x'`);
    expect(statSync(path.join(dir, REPRO_FILE)).mode & 0o111).not.toBe(0);
    writeReports(dir, { ...results, cases: [results.cases[0]] });
    expect(existsSync(path.join(dir, REPRO_FILE))).toBe(false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
