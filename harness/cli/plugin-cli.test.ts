import { expect, test } from '@playwright/test';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import type { Results } from '../core/results.js';
import { PROJECT_ROOT } from '../core/suite-paths.js';
import { treeDifferences } from '../../test-support/tree-diff.js';
import { runCli } from '../../test-support/cli-process.js';
import { expectMergedAsWhole, judgement } from '../../test-support/same-judgement.js';

let dir: string;
test.beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-plugin-cli-'));
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

const results = (out: string): Results => JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as Results;

test('the reference plugin conforms: every case passes and the four reports are written', async () => {
  test.setTimeout(120_000);
  const out = path.join(dir, 'reference');
  // Named relative to where touchstone runs, as a user types it.
  const run = await runCli(['plugin', '--plugin', './protoc-gen-touchstone.js', '--out', out], {}, path.join(PROJECT_ROOT, 'bin'));
  expect(run.code, run.stdout + run.stderr).toBe(0);
  const report = results(out);
  expect(report).toMatchObject({ kind: 'plugin', verdict: 'conforming' });
  expect(report.summary.PASS).toBe(report.summary.total);
  expect(report.requirements.every((r) => r.id.startsWith('plugin.'))).toBe(true);
  expect(readFileSync(path.join(out, 'report.html'), 'utf8')).toContain('plugin conformance report');
});

// The reference plugin's committed session is what the plugin answers today: judged offline
// it conforms, and a fresh recording into a copy of it changes no byte (CI has no second
// check of this).
test('cassettes/plugin-reference: replayed it conforms, and recording the reference plugin today reproduces it byte for byte', async () => {
  test.setTimeout(120_000);
  const committed = path.join(PROJECT_ROOT, 'cassettes/plugin-reference');
  const replayed = await runCli(['plugin', '--replay', committed, '--out', path.join(dir, 'committed-replayed')]);
  expect(replayed.code, replayed.stdout + replayed.stderr).toBe(0);
  expect(results(path.join(dir, 'committed-replayed'))).toMatchObject({ verdict: 'conforming' });
  const fresh = path.join(dir, 'committed-fresh');
  cpSync(committed, fresh, { recursive: true });
  // As `npm run sessions:reference-plugin` records it: from the project's root.
  const recorded = await runCli([
    'plugin',
    '--plugin',
    'node bin/protoc-gen-touchstone.js',
    '--record',
    fresh,
    '--out',
    path.join(dir, 'committed-recorded'),
  ]);
  expect(recorded.code, recorded.stdout + recorded.stderr).toBe(0);
  expect(
    treeDifferences(committed, fresh),
    "cassettes/plugin-reference is stale: run 'npm run sessions:reference-plugin' and commit the result",
  ).toEqual([]);
});

test("npm's protoc-gen-es: every finding cites a requirement and a reproduction from its saved request, and nothing is ERROR", async () => {
  test.setTimeout(120_000);
  const out = path.join(dir, 'es');
  const run = await runCli(['plugin', '--plugin', path.join(PROJECT_ROOT, 'node_modules/.bin/protoc-gen-es'), '--out', out]);
  const report = results(out);
  expect(run.code, run.stdout + run.stderr).toBe(report.summary.FAIL > 0 ? 1 : 0);
  expect(report.summary.ERROR).toBe(0);
  const findings = report.cases.filter((c) => c.outcome !== 'PASS');
  for (const finding of findings) {
    expect(finding.failure?.requirement).toMatch(/^plugin\./);
    expect(finding.failure?.reproduce).toMatch(/^\S*protoc-gen-es < \S*\/plugin-requests\/io\/[a-z-]+\/run-\d\.bin$/);
  }
  // protoc-gen-es 2.17 refuses an unknown option with exit 1 instead of an error response.
  expect(findings.map((c) => `${c.outcome} ${c.id}`)).toEqual(['WARN io/unknown-parameter']);
});

test('a plugin that cannot start is exit 3, bad options exit 2, each with the reason', async () => {
  const missing = await runCli(['plugin', '--plugin', '/nonexistent/protoc-gen-x', '--out', path.join(dir, 'missing')]);
  expect(missing.code).toBe(3);
  expect(missing.stderr).toContain('the plugin cannot be started: /nonexistent/protoc-gen-x: ENOENT');
  const quote = await runCli(['plugin', '--plugin', 'node "unterminated']);
  expect(quote.code).toBe(2);
  expect(quote.stderr).toContain('unterminated " quote');
  const suite = await runCli(['plugin', '--plugin', 'cat', '--suite', 'nope']);
  expect(suite.code).toBe(2);
  expect(suite.stderr).toContain('unknown suite nope; known: files, io');
});

test('--record saves every run; --replay judges the recording alone, without --plugin and without starting anything', async () => {
  test.setTimeout(180_000);
  // A plugin that is gone by replay time proves replay never starts it.
  const wrapper = path.join(dir, 'protoc-gen-doomed');
  writeFileSync(wrapper, `#!/bin/sh\nexec node '${path.join(PROJECT_ROOT, 'bin/protoc-gen-touchstone.js')}' "$@"\n`);
  chmodSync(wrapper, 0o755);
  const session = path.join(dir, 'session');
  const recorded = await runCli(['plugin', '--plugin', wrapper, '--record', session, '--out', path.join(dir, 'recorded')]);
  expect(recorded.code, recorded.stdout + recorded.stderr).toBe(0);
  expect(results(path.join(dir, 'recorded')).summary).toMatchObject({ total: 14, PASS: 14 });
  // A recording run says where it records, on the console and in results.json.
  expect(recorded.stdout).toContain(`running 14 cases against the plugin \`${wrapper}\`, recording into ${session}\n`);
  expect(results(path.join(dir, 'recorded')).target.recordings).toEqual({ mode: 'record', folder: session });
  expect(JSON.parse(readFileSync(path.join(session, 'session.json'), 'utf8'))).toMatchObject({
    format: 'touchstone-plugin-session',
    version: 1,
    command: [wrapper],
  });
  expect(readdirSync(path.join(session, 'io', 'deterministic')).sort()).toEqual([
    'run-1.json',
    'run-1.request.bin',
    'run-1.stdout.bin',
    'run-2.json',
    'run-2.request.bin',
    'run-2.stdout.bin',
  ]);
  rmSync(wrapper);

  const replayOut = path.join(dir, 'replayed');
  const replayed = await runCli(['plugin', '--replay', session, '--out', replayOut]);
  expect(replayed.code, replayed.stdout + replayed.stderr).toBe(0);
  const report = results(replayOut);
  expect(report.summary).toMatchObject({ total: 14, PASS: 14 });
  expect(report.target.url).toBe(wrapper);
  // A replay says it is one, naming the session it judged, before any case and in every report.
  expect(replayed.stdout).toContain(`running 14 cases against the recordings in ${session} of the plugin \`${wrapper}\`\n`);
  expect(replayed.stdout).toContain(`touchstone: CONFORMING (the recordings in ${session} of the plugin \`${wrapper}\`)\n`);
  expect(report.target.recordings).toEqual({ mode: 'replay', folder: session });
  expect(readFileSync(path.join(replayOut, 'junit.xml'), 'utf8')).toContain(`<property name="replay" value="${session}"/>`);
  expect(existsSync(wrapper)).toBe(false);

  // Garbage in place of one recorded answer (with its sha256 updated, as a deliberate edit
  // would): that case fails in replay, the others still pass.
  const edited = path.join(dir, 'session-edited');
  cpSync(session, edited, { recursive: true });
  const run = path.join(edited, 'io', 'real-request', 'run-1');
  const garbage = Buffer.from('this is not a CodeGeneratorResponse');
  writeFileSync(`${run}.stdout.bin`, garbage);
  const json = JSON.parse(readFileSync(`${run}.json`, 'utf8'));
  json.sha256.stdout = createHash('sha256').update(garbage).digest('hex');
  writeFileSync(`${run}.json`, JSON.stringify(json, null, 2));
  const editedOut = path.join(dir, 'replayed-edited');
  const failing = await runCli(['plugin', '--replay', edited, '--out', editedOut]);
  expect(failing.code, failing.stdout + failing.stderr).toBe(1);
  const findings = results(editedOut).cases.filter((c) => c.outcome !== 'PASS');
  expect(findings.map((c) => ({ id: c.id, outcome: c.outcome, requirement: c.failure?.requirement }))).toEqual([
    { id: 'io/real-request', outcome: 'FAIL', requirement: 'plugin.io.one-request-one-response' },
  ]);
});

test('--record with --replay, no --plugin without --replay, and a bad session are exit 2', async () => {
  const both = await runCli(['plugin', '--plugin', 'cat', '--record', path.join(dir, 'a'), '--replay', path.join(dir, 'b')]);
  expect(both.code).toBe(2);
  expect(both.stderr).toContain('--record and --replay cannot be used together');
  const none = await runCli(['plugin']);
  expect(none.code).toBe(2);
  expect(none.stderr).toContain('--plugin is required (unless --replay names a recorded session)');
  const nothing = await runCli(['plugin', '--replay', path.join(dir, 'no-session')]);
  expect(nothing.code).toBe(2);
  expect(nothing.stderr).toContain('holds no recorded plugin session');
  const newer = path.join(dir, 'newer-session');
  mkdirSync(newer);
  writeFileSync(path.join(newer, 'session.json'), JSON.stringify({ format: 'touchstone-plugin-session', version: 2, command: ['x'] }));
  const tooNew = await runCli(['plugin', '--replay', newer]);
  expect(tooNew.code).toBe(2);
  expect(tooNew.stderr).toContain('version 2 of the plugin session format is not supported');
});

// Each case starts the plugin on its own, so workers share nothing: two give the verdicts of
// one, and the halves of a --shard split merge (report merge) into the whole run. Against
// protoc-gen-es, whose one WARN shows a finding survives the split.
test('--workers 2 judges as one worker does; the parts of --shard i/n merge into the whole run', async () => {
  test.setTimeout(240_000);
  const es = path.join(PROJECT_ROOT, 'node_modules/.bin/protoc-gen-es');
  const runs = [];
  for (const [i, extra] of [[], ['--workers', '2'], ['--workers', '2', '--shard', '1/2'], ['--shard', '2/2']].entries())
    runs.push(await runCli(['plugin', '--plugin', es, '--out', path.join(dir, `parallel-${i}`), ...extra]));
  for (const run of runs) expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(runs[1].stdout).toContain('(2 workers)');
  expect(runs[2].stdout).toContain('(2 workers, shard 1/2)');
  const one = results(path.join(dir, 'parallel-0'));
  expect(one.cases.map((c) => c.outcome)).toContain('WARN');
  expect(judgement(path.join(dir, 'parallel-1'))).toEqual(judgement(path.join(dir, 'parallel-0')));
  const halves = [2, 3].map((i) => results(path.join(dir, `parallel-${i}`)).cases.length);
  expect(halves.every((n) => n > 0 && n < one.cases.length)).toBe(true);
  const parts = [path.join(dir, 'parallel-3'), path.join(dir, 'parallel-2')];
  await expectMergedAsWhole(parts, path.join(dir, 'parallel-0'), path.join(dir, 'parallel-merged'));
});

test('--only, --grep and --grep-invert select the cases as run selects them; a selection of nothing is exit 2', async () => {
  test.setTimeout(120_000);
  const out = path.join(dir, 'selected');
  const run = await runCli([
    'plugin',
    '--plugin',
    'node bin/protoc-gen-touchstone.js',
    '--only',
    'io/real-request',
    '--grep',
    '^files/',
    '--grep-invert',
    'optional',
    '--out',
    out,
  ]);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  const ids = results(out).cases.map((c) => c.id);
  expect(ids).toContain('io/real-request');
  expect(ids.filter((id) => id.startsWith('io/'))).toEqual(['io/real-request']);
  expect(ids.some((id) => id.startsWith('files/'))).toBe(true);
  expect(ids).not.toContain('files/proto3-optional');
  expect(results(out).scope).toMatchObject({ only: ['io/real-request'], grep: '^files/', grep_invert: 'optional' });
  const nothing = await runCli(['plugin', '--plugin', 'cat', '--only', 'io/no-such-case']);
  expect(nothing.code).toBe(2);
  expect(nothing.stderr).toContain('--only names no case: io/no-such-case');
});
