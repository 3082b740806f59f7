// `touchstone run --replay` against the committed recordings of the reference: the whole
// suite passes offline, and the target it stands for never sees a connection.
import { expect, test } from '@playwright/test';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Results } from '../core/results.js';
import { PROJECT_ROOT, suitePaths } from '../core/suite-paths.js';
import { loadSuites } from '../suite/suite-loader.js';
import { REPORT_FILES, REPRO_FILE } from '../report/write-reports.js';
import { readWorldTokens } from '../suite/world-tokens.js';
import { treeDifferences } from '../../test-support/tree-diff.js';
import { runCli, startServe, tokensFile } from '../../test-support/cli-process.js';

const REFERENCE_CASSETTES = path.join(PROJECT_ROOT, 'cassettes/reference');

test.describe.configure({ mode: 'parallel' });
// The first two are whole runs (about 20-40 s here): on a machine loaded by the rest of the
// tests and the kill matrix (.ci/run) they went past the default minute.
const WHOLE_RUN_MS = 300_000;

test('run --replay cassettes/reference passes offline and the sentinel target sees zero connections', async () => {
  test.setTimeout(WHOLE_RUN_MS);
  const out = mkdtempSync(path.join(os.tmpdir(), 'touchstone-replay-test-'));
  let connections = 0;
  const sentinel = net.createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => sentinel.listen(0, '127.0.0.1', resolve));
  const { port } = sentinel.address() as net.AddressInfo;
  try {
    const result = await runCli(['run', '--replay', REFERENCE_CASSETTES, '--target', `http://127.0.0.1:${port}`, '--out', out]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const results: Results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8'));
    expect(results.cases.filter((c) => c.outcome !== 'PASS').map((c) => `${c.id}: ${c.outcome} ${c.message}`)).toEqual([]);
    // Every case of every suite was replayed: a lost case fails here.
    expect(results.summary.total).toBe(loadSuites(suitePaths.service).reduce((n, suite) => n + suite.cases.length, 0));
    expect(result.stdout).toMatch(/proxy \(replay\): \d+ cassettes, \d+ answers replayed, 0 recorded\n/);
    expect(result.stdout).not.toContain('never asked for');
    expect(connections).toBe(0);
    // The --target named stands for the recordings; the proxy's passing port is named nowhere.
    expect(result.stdout).toContain(`against the recordings in ${REFERENCE_CASSETTES} of http://127.0.0.1:${port}\n`);
    expect(results.target).toEqual({
      url: `http://127.0.0.1:${port}`,
      embedded: false,
      recordings: { mode: 'replay', folder: REFERENCE_CASSETTES },
    });
  } finally {
    sentinel.close();
    rmSync(out, { recursive: true, force: true });
  }
});

// The committed recordings are today's reference: a fresh recording into a copy of them
// (--record-mode all: every case recorded again, none replayed) changes no byte, adds no file
// and removes none (CI has no second check of this).
test('run --record reproduces the committed recordings byte for byte', async () => {
  test.setTimeout(WHOLE_RUN_MS);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-record-test-'));
  try {
    cpSync(REFERENCE_CASSETTES, dir, { recursive: true });
    const result = await runCli([
      'run',
      '--record',
      dir,
      '--record-mode',
      'all',
      '--out',
      path.join(dir, '..', `${path.basename(dir)}-report`),
    ]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(
      treeDifferences(REFERENCE_CASSETTES, dir),
      "cassettes/reference is stale: run 'npm run cassettes:reference' and commit the result",
    ).toEqual([]);
    expect(result.stdout).not.toContain('removed');
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(`${dir}-report`, { recursive: true, force: true });
  }
});

test('run --record over a folder: a case already recorded is replayed and kept (record mode once), a new one recorded, and the summary says which', async () => {
  test.setTimeout(180_000);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-record-once-'));
  const cassettes = path.join(dir, 'cassettes');
  const first = 'assignees/list-returns-users';
  const second = 'assignees/add-assignee';
  const file = (id: string) => path.join(cassettes, `${id}.cassette.json`);
  try {
    const recorded = await runCli(['run', '--record', cassettes, '--only', first, '--out', path.join(dir, 'one')]);
    expect(recorded.code, recorded.stdout + recorded.stderr).toBe(0);
    const bytes = readFileSync(file(first), 'utf8');
    const again = await runCli(['run', '--record', cassettes, '--only', first, '--only', second, '--out', path.join(dir, 'two')]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    // The run's probe cassette is kept the same way.
    expect(again.stdout).toContain(
      `  2 cassettes already recorded, replayed and kept as they were (record mode once; --record-mode all re-records them): _run/probe, ${first}\n`,
    );
    expect(readFileSync(file(first), 'utf8')).toBe(bytes);
    expect(existsSync(file(second))).toBe(true);
    const misplaced = await runCli(['run', '--record-mode', 'all', '--only', first]);
    expect(misplaced.code).toBe(2);
    expect(misplaced.stderr).toContain('--record-mode all says what --record does with a case already recorded; add --record DIR');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('record, then replay, say so and name the folder; curl lines name the real target recording, the recorded origin replaying, never the proxy', async () => {
  test.setTimeout(180_000);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-replay-named-'));
  const server = await startServe(['--fault', 'pagination.no-link-header']);
  const only = ['--only', 'assignees/list-pages-of-a-large-repository', '--only', 'assignees/list-returns-users'];
  const cassettes = path.join(dir, 'cassettes');
  // Every local origin a file names (the target's, or a proxy's).
  const origins = (file: string) => [...new Set(readFileSync(file, 'utf8').match(/http:\/\/127\.0\.0\.1:\d+/g))];
  const reportFiles = (out: string) => [...Object.values(REPORT_FILES), REPRO_FILE].map((name) => path.join(out, name));
  try {
    const recordOut = path.join(dir, 'recorded');
    const recorded = await runCli(
      ['run', '--record', cassettes, '--target', server.url, '--tokens', tokensFile(dir), ...only, '--out', recordOut],
      { ADMIN_TOKEN: readWorldTokens()['repo-admin'] },
    );
    expect(recorded.code, recorded.stdout + recorded.stderr).toBe(1);
    expect(recorded.stdout).toContain(`touchstone: running 2 cases against ${server.url}, recording into ${cassettes}\n`);
    const recordResults: Results = JSON.parse(readFileSync(path.join(recordOut, 'results.json'), 'utf8'));
    expect(recordResults.target).toEqual({ url: server.url, embedded: false, recordings: { mode: 'record', folder: cassettes } });
    const recordFailure = recordResults.cases.find((c) => c.outcome === 'FAIL')!.failure!;
    expect(recordFailure.reproduce).toContain(` '${server.url}/repos/`);
    // The target is live: every local origin a report names is its own.
    for (const file of reportFiles(recordOut)) expect(origins(file), file).toEqual([server.url]);

    const replayOut = path.join(dir, 'replayed');
    const replayed = await runCli(['run', '--replay', cassettes, ...only, '--out', replayOut]);
    expect(replayed.code, replayed.stdout + replayed.stderr).toBe(1);
    expect(replayed.stdout).toContain(`touchstone: running 2 cases against the recordings in ${cassettes}\n`);
    expect(replayed.stdout).toContain(`touchstone: NON-CONFORMING (the recordings in ${cassettes})\n`);
    const results: Results = JSON.parse(readFileSync(path.join(replayOut, 'results.json'), 'utf8'));
    expect(results.target).toEqual({ url: 'http://target.invalid', embedded: false, recordings: { mode: 'replay', folder: cassettes } });
    const failing = results.cases.find((c) => c.outcome === 'FAIL')!;
    expect(failing.id).toBe('assignees/list-pages-of-a-large-repository');
    expect(failing.failure!.reproduce).toContain(" 'http://target.invalid/repos/");
    expect(failing.rerun).toBe(`npx touchstone run --replay ${cassettes} --only ${failing.id}`);
    // The proxy's port, gone with the run, is in no report; the recordings are named in each.
    for (const file of reportFiles(replayOut)) expect(origins(file), file).toEqual([]);
    const read = (name: string) => readFileSync(path.join(replayOut, name), 'utf8');
    expect(read(REPORT_FILES.html)).toContain(`the recordings in ${cassettes}`);
    expect(read(REPORT_FILES.summary)).toContain(`the recordings in ${cassettes}`);
    expect(read(REPORT_FILES.junit)).toContain(`<property name="replay" value="${cassettes}"/>`);
    expect(JSON.parse(read(REPORT_FILES.ctrf)).results.environment.extra.recordings).toEqual({ mode: 'replay', folder: cassettes });
    expect(read(REPRO_FILE)).toContain('#   http://target.invalid: the recordings keep no origin;');
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a case the recording lacks is an ERROR naming the request, said before any case, and never judged on the miss', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-replay-miss-'));
  const cassettes = path.join(dir, 'cassettes');
  try {
    cpSync(REFERENCE_CASSETTES, cassettes, { recursive: true });
    // The recording lists the case (_run/cases.json), but its cassette is gone.
    rmSync(path.join(cassettes, 'assignees/list-returns-users.cassette.json'));
    const result = await runCli([
      'run',
      '--replay',
      cassettes,
      '--suite',
      'assignees',
      '--out',
      path.join(dir, 'out'),
      '--allow-incomplete',
    ]);
    // An ERROR makes the run incomplete (exit 4), and --allow-incomplete does not forgive it.
    expect(result.code, result.stdout + result.stderr).toBe(4);
    const results: Results = JSON.parse(readFileSync(path.join(dir, 'out/results.json'), 'utf8'));
    expect(results.verdict).toBe('incomplete');
    expect(results.gaps.errors).toEqual(['assignees/list-returns-users']);
    const missing = results.cases.find((c) => c.id === 'assignees/list-returns-users')!;
    expect(missing.outcome).toBe('ERROR');
    expect(missing.message).toBe(
      'the recording lacks this request: POST /_conformance/reset (cassette assignees/list-returns-users: the cassette does not exist)',
    );
    expect(results.cases.filter((c) => c.outcome === 'PASS')).toHaveLength(results.cases.length - 1);
    expect(result.stdout).toContain('assignees/list-returns-users: POST /_conformance/reset: touchstone: the cassette does not exist');
    // Said before any case runs, too.
    expect(result.stderr).toContain(
      `touchstone: ${cassettes} lacks the recording of 1 case (the run recording it stopped first, or it was ERROR): it will be ERROR: assignees/list-returns-users\n`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a recording with one interaction removed by hand replays as ERROR for that case, naming the request and the nearest recorded, not FAIL or WARN', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-replay-hole-'));
  const cassettes = path.join(dir, 'cassettes');
  const id = 'assignees/add-at-most-ten';
  try {
    cpSync(REFERENCE_CASSETTES, cassettes, { recursive: true });
    const file = path.join(cassettes, `${id}.cassette.json`);
    const cassette = JSON.parse(readFileSync(file, 'utf8'));
    // Its third interaction (a DELETE that undoes the first addition) goes; the ones after stay.
    const [removed] = cassette.interactions.splice(2, 1);
    expect(`${removed.request.method} ${removed.request.url}`).toBe('DELETE /repos/octo-org/crowd/issues/1/assignees');
    writeFileSync(file, JSON.stringify(cassette, null, 2));
    const result = await runCli(['run', '--replay', cassettes, '--only', id, '--out', path.join(dir, 'out')]);
    expect(result.code, result.stdout + result.stderr).toBe(4);
    const results: Results = JSON.parse(readFileSync(path.join(dir, 'out/results.json'), 'utf8'));
    const [replayed] = results.cases;
    expect(replayed.outcome).toBe('ERROR');
    expect(replayed.failure).toBeUndefined();
    expect(replayed.message).toMatch(
      /^the recording lacks this request: DELETE \/repos\/octo-org\/crowd\/issues\/1\/assignees \(cassette assignees\/add-at-most-ten: (no recorded interaction matches this request|all \d+ recorded responses to this request were already used \(exhaustion policy: error\))\); nearest recorded: #\d+ DELETE \/repos\/octo-org\/crowd\/issues\/1\/assignees/,
    );
    expect(results.verdict).toBe('incomplete');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a cassette a crash left incomplete is refused on replay, naming it: ERROR for its case, exit 2 for the proxy, a problem for lint', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-replay-incomplete-'));
  const cassettes = path.join(dir, 'cassettes');
  const id = 'assignees/list-returns-users';
  try {
    cpSync(path.join(REFERENCE_CASSETTES, 'assignees'), path.join(cassettes, 'assignees'), { recursive: true });
    cpSync(path.join(REFERENCE_CASSETTES, '_run/probe.cassette.json'), path.join(cassettes, '_run/probe.cassette.json'));
    const file = path.join(cassettes, `${id}.cassette.json`);
    // What cassette-store.ts's recovery writes for a crashed recording.
    writeFileSync(file, readFileSync(file, 'utf8').replace(/("recordedAt": "[^"]+",\n)/, '$1  "incomplete": true,\n'));
    const shown = path.relative(process.cwd(), file);
    const result = await runCli(['run', '--replay', cassettes, '--only', id, '--out', path.join(dir, 'out')]);
    expect(result.code, result.stdout + result.stderr).toBe(4);
    const results: Results = JSON.parse(readFileSync(path.join(dir, 'out/results.json'), 'utf8'));
    expect(results.cases[0].outcome).toBe('ERROR');
    expect(results.cases[0].message).toContain(`(cassette ${id}: ${shown} is incomplete (a crash ended its recording): record it again)`);
    const proxy = await runCli(['proxy', '--mode', 'replay', '--cassette', file, '--port', '0']);
    expect(proxy.code).toBe(2);
    expect(proxy.stderr).toContain(`cannot replay: ${shown} is incomplete (a crash ended its recording): record it again`);
    const lint = await runCli(['cassette', 'lint', cassettes]);
    expect(lint.code).toBe(1);
    expect(lint.stdout).toContain(`${file} is incomplete (a crash ended its recording): replay refuses it; record it again`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('run --replay replays exactly the recorded cases by default, and a selection of unrecorded ones is exit 2 unless --skip-unrecorded', async () => {
  test.setTimeout(180_000);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-replay-selection-'));
  const cassettes = path.join(dir, 'cassettes');
  const recordedCases = ['assignees/list-returns-users', 'variables/create-update-delete'];
  try {
    const recorded = await runCli([
      'run',
      '--record',
      cassettes,
      ...recordedCases.flatMap((id) => ['--only', id]),
      '--out',
      path.join(dir, 'r'),
    ]);
    expect(recorded.code, recorded.stdout + recorded.stderr).toBe(0);
    const replayed = await runCli(['run', '--replay', cassettes, '--out', path.join(dir, 'all')]);
    expect(replayed.code, replayed.stdout + replayed.stderr).toBe(0);
    expect(replayed.stdout).toContain(
      `touchstone: replaying the 2 cases recorded in ${cassettes} (--suite, --only or --grep replay fewer)\n`,
    );
    const results: Results = JSON.parse(readFileSync(path.join(dir, 'all/results.json'), 'utf8'));
    expect(results.cases.map((c) => c.id)).toEqual(recordedCases);
    // Recorded in part, it is judged for what its cases cite, as a run of those cases would be.
    expect(results.scope.only).toEqual(recordedCases);
    expect(results.verdict).toBe('conforming');

    const asked = ['--suite', 'variables', '--out', path.join(dir, 'suite')];
    const refused = await runCli(['run', '--replay', cassettes, ...asked]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      new RegExp(
        `--replay ${cassettes} holds no recording of \\d+ selected cases: variables/[^ ]+, .* more; record them with --record ${cassettes}, or add --skip-unrecorded to report them as SKIP`,
      ),
    );
    expect(refused.stdout).not.toContain('running');
    const skipped = await runCli(['run', '--replay', cassettes, ...asked, '--skip-unrecorded']);
    expect(skipped.code, skipped.stdout + skipped.stderr).toBe(4);
    const partial: Results = JSON.parse(readFileSync(path.join(dir, 'suite/results.json'), 'utf8'));
    expect(partial.cases.filter((c) => c.outcome === 'PASS').map((c) => c.id)).toEqual(['variables/create-update-delete']);
    const skips = partial.cases.filter((c) => c.outcome === 'SKIP');
    expect(skips.length).toBe(partial.cases.length - 1);
    expect(skips[0].message).toBe(`${cassettes} holds no recording of this case (--skip-unrecorded)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('run --replay of a folder with no recordings is exit 2 before any case runs, naming the folder', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-replay-empty-'));
  try {
    const empty = await runCli(['run', '--replay', dir, '--out', path.join(dir, 'out')]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain(`touchstone: --replay ${dir} holds no recordings (*.cassette.json): record them with --record ${dir}\n`);
    expect(empty.stdout).not.toContain('running');
    expect(existsSync(path.join(dir, 'out'))).toBe(false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
