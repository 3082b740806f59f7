// `touchstone report` through the real command. Sharding end to end: the whole catalogue run
// in two shards (as two CI machines would), merged with `report merge`, says what one unsharded
// run says, and the refusals a merge job relies on. `report compare`: its files and the exit
// code CI gates on. `baseline update` and runs with the baseline it wrote. `report show` and
// `report open`: the report served over HTTP, and handed to a browser.
import { expect, test } from '@playwright/test';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Results } from '../core/results.js';
import { createResultsFixture, withOutcomes as after } from '../../test-support/results-fixture.js';
import { readWorldTokens } from '../suite/world-tokens.js';
import { runCli, startServe, startServing, tokensFile } from '../../test-support/cli-process.js';
import { writeReports } from '../report/write-reports.js';

// Three full runs at once take 30-60 s on a loaded 2-core machine.
test.describe.configure({ timeout: 180_000 });

const scratch = () => mkdtempSync(path.join(os.tmpdir(), 'touchstone-merge-test-'));
const readResults = (dir: string): Results => JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8'));
test('merge refuses what is not the whole of one run: a missing shard, a shard twice, another configuration, an older format', async () => {
  const dir = scratch();
  const run = (shard: string, out: string, ...extra: string[]) =>
    runCli(['run', '--suite', 'assignees', '--shard', shard, '--out', path.join(dir, out), ...extra]);
  const runs = await Promise.all([run('1/3', 'a'), run('2/3', 'b'), run('3/3', 'c'), run('3/3', 'strict', '--strict')]);
  for (const r of runs) expect(r.code, r.stdout + r.stderr).toBe(0);
  const merge = (...parts: string[]) => runCli(['report', 'merge', ...parts.map((p) => path.join(dir, p)), '--out', path.join(dir, 'm')]);

  const missing = await merge('a', 'b');
  expect(missing.code).toBe(2);
  expect(missing.stderr).toContain('shard 3/3 is missing');
  const twice = await merge('a', 'b', 'b', 'c');
  expect(twice.code).toBe(2);
  expect(twice.stderr).toContain('given twice');
  const other = await merge('a', 'b', 'strict');
  expect(other.code).toBe(2);
  expect(other.stderr).toMatch(/differ in (fingerprint|strictness)/);
  const old = readResults(path.join(dir, 'c')) as unknown as Record<string, unknown>;
  writeFileSync(path.join(dir, 'old.json'), JSON.stringify({ ...old, format: 'touchstone-results/1' }));
  const older = await merge('a', 'b', 'old.json');
  expect(older.code).toBe(2);
  expect(older.stderr).toContain('not touchstone-results/2');
  const nothing = await merge('a', 'nowhere');
  expect(nothing.stderr).toContain('no results.json there');
  expect((await merge('c', 'a', 'b')).code).toBe(0);
});

test('touchstone report compare writes compare.html and compare.md and exits 1 on a regression, 0 without, 2 on bad input', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-compare-'));
  const write = (name: string, results: Results) => {
    mkdirSync(path.join(dir, name));
    writeFileSync(path.join(dir, name, 'results.json'), JSON.stringify(results));
    return path.join(dir, name);
  };
  const base = write('main', createResultsFixture());
  const worse = write('branch', after({ 'assignees/list-returns-users': 'FAIL' }));
  const same = write('again', createResultsFixture());

  const regressed = await runCli(['report', 'compare', base, worse, '--out', path.join(dir, 'out')]);
  expect(regressed.code, regressed.stderr).toBe(1);
  expect(regressed.stdout).toContain('1 newly failing case');
  expect(readFileSync(path.join(dir, 'out', 'compare.md'), 'utf8')).toContain('`assignees/list-returns-users`');
  expect(readFileSync(path.join(dir, 'out', 'compare.html'), 'utf8')).toContain('<th>branch</th>');

  const fixed = await runCli(['report', 'compare', worse, base, '--out', path.join(dir, 'out2')]);
  expect(fixed.code).toBe(0);
  expect(fixed.stdout).toContain('nothing regressed against branch');
  expect((await runCli(['report', 'compare', base, same, '--out', path.join(dir, 'out3')])).code).toBe(0);

  writeFileSync(path.join(dir, 'broken.json'), '{"format":"touchstone-results/2"');
  const broken = await runCli(['report', 'compare', base, path.join(dir, 'broken.json'), '--out', path.join(dir, 'out4')]);
  expect(broken.code).toBe(2);
  expect(broken.stderr).toContain('is not JSON');
  const one = await runCli(['report', 'compare', base, '--out', path.join(dir, 'out5')]);
  expect(one.code).toBe(2);
  expect(one.stderr).toContain('compare needs at least two runs; got 1');
  // One run and no --out: the one run is the mistake named, not the missing --out.
  const oneNoOut = await runCli(['report', 'compare', base]);
  expect([oneNoOut.code, oneNoOut.stderr]).toEqual([2, 'touchstone: compare needs at least two runs; got 1\n']);
  const noOut = await runCli(['report', 'compare', base, same]);
  expect([noOut.code, noOut.stderr]).toEqual([2, 'touchstone: compare needs --out DIR, the folder compare.html and compare.md go to\n']);
});

test('baseline: update writes a run’s failures; the next run with it is XFAIL and exit 0; a fixed target makes the entry stale; --fix drops it; an unknown case is exit 2', async () => {
  const dir = scratch();
  const baseline = path.join(dir, 'known.yaml');
  const env = { ADMIN_TOKEN: readWorldTokens()['repo-admin'] };
  const server = await startServe(['--fault', 'limits.owner-limit-ignored']);
  try {
    const run = (out: string) =>
      runCli(
        [
          'run',
          '--suite',
          'interaction-limits',
          '--target',
          server.url,
          '--tokens',
          tokensFile(dir),
          '--baseline',
          baseline,
          '--out',
          path.join(dir, out),
        ],
        env,
      );
    writeFileSync(baseline, '# known failures\nknown: []\n');
    const first = await run('first');
    expect(first.code).toBe(1);
    const update = await runCli(['baseline', 'update', baseline, '--from', path.join(dir, 'first')]);
    expect(update.code, update.stderr).toBe(0);
    expect(update.stdout).toContain(
      '+ added   interaction-limits/repo-conflict-with-org-limit: MUST interaction-limits.repo-conflict-409, as repo-admin: expected status 409, got status 200',
    );
    expect(update.stdout).toMatch(/2 changes written to .*known\.yaml/);
    expect(readFileSync(baseline, 'utf8')).toContain('# known failures');

    const second = await run('second');
    expect(second.code, second.stdout).toBe(0);
    const results = readResults(path.join(dir, 'second'));
    expect(results.summary).toMatchObject({ XFAIL: 2, FAIL: 0 });
    // Known, not fixed: the verdict still says the target breaks a MUST.
    expect(results.verdict).toBe('non-conforming');
  } finally {
    await server.stop();
  }
  // The embedded reference has no such fault: the entries are stale and fail the run, until --fix removes them.
  const fixed = await runCli(['run', '--suite', 'interaction-limits', '--baseline', baseline, '--out', path.join(dir, 'fixed')]);
  expect(fixed.code).toBe(1);
  expect(fixed.stdout).toContain('stale baseline entry: the case passes now');
  const update = await runCli(['baseline', 'update', baseline, '--from', path.join(dir, 'fixed'), '--fix']);
  expect(update.stdout).toContain('- removed interaction-limits/repo-conflict-with-org-limit: the case passes now');
  expect((await runCli(['run', '--suite', 'interaction-limits', '--baseline', baseline, '--out', path.join(dir, 'clean')])).code).toBe(0);

  writeFileSync(baseline, '- {case: interaction-limits/no-such-case, reason: typo}\n');
  const unknown = await runCli(['run', '--suite', 'assignees', '--baseline', baseline, '--out', path.join(dir, 'unknown')]);
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain('lists cases the suites do not have: interaction-limits/no-such-case');
});

/** GET (or another method) of `pathname` exactly as written, `..` and all (fetch would resolve it first). */
function request(url: string, pathname: string, method = 'GET', host?: string) {
  const { hostname, port } = new URL(url);
  return new Promise<{ status: number; type?: string; body: string }>((resolve, reject) => {
    const req = http.request({ hostname, port, path: pathname, method, headers: host ? { host } : {} }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, type: res.headers['content-type'], body }));
    });
    req.on('error', reject).end();
  });
}

test('report show serves the folder of the latest report on 127.0.0.1 (the page, the files beside it), refuses what lies outside it, and stops at SIGINT with exit 0', async () => {
  const dir = scratch();
  const run = path.join(dir, 'reports', 'run-1');
  writeReports(run, createResultsFixture());
  mkdirSync(path.join(run, 'plugin-requests', 'io', 'a-case'), { recursive: true });
  writeFileSync(path.join(run, 'plugin-requests', 'io', 'a-case', 'run-1.bin'), Buffer.from([0, 1, 2]));
  writeFileSync(path.join(dir, 'reports', 'secret.txt'), 'not part of the report');
  symlinkSync(path.join('..', '..', 'secret.txt'), path.join(run, 'plugin-requests', 'out.txt'));
  symlinkSync('run-1', path.join(dir, 'reports', 'latest'));

  const server = await startServing(['report', 'show', '--port', '0'], { cwd: dir });
  try {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/report\.html$/);
    const page = await fetch(server.url);
    expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    expect(await page.text()).toBe(readFileSync(path.join(run, 'report.html'), 'utf8'));
    const origin = new URL(server.url).origin;
    const results = await fetch(`${origin}/results.json`);
    expect([results.status, results.headers.get('content-type')]).toEqual([200, 'application/json; charset=utf-8']);
    expect(((await results.json()) as Results).format).toBe('touchstone-results/2');
    const saved = await fetch(`${origin}/plugin-requests/io/a-case/run-1.bin`);
    expect([saved.status, saved.headers.get('content-type')]).toEqual([200, 'application/octet-stream']);
    expect([...new Uint8Array(await saved.arrayBuffer())]).toEqual([0, 1, 2]);
    const root = await fetch(`${origin}/`, { redirect: 'manual' });
    expect([root.status, root.headers.get('location')]).toEqual([302, '/report.html']);
    // Each way out of the folder: the raw `..`, encoded dots or slashes, an absolute path, a link.
    for (const outside of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      `/${encodeURIComponent(path.join(dir, 'reports', 'secret.txt'))}`,
      '/plugin-requests/out.txt',
    ])
      expect([outside, (await request(server.url, outside)).status]).toEqual([outside, 403]);
    expect((await request(server.url, '/no-such-file.html')).status).toBe(404);
    expect((await request(server.url, '/plugin-requests/')).status).toBe(404);
    expect((await request(server.url, '/report.html', 'POST')).status).toBe(405);
    expect((await request(server.url, '/report.html', 'HEAD')).status).toBe(200);
    expect((await request(server.url, '/report.html', 'GET', 'attacker.example')).status).toBe(403);
  } finally {
    expect(await server.stop('SIGINT')).toBe(0);
  }

  // The port it was told to use, taken: said, exit 2. No report there, or a bad port: exit 2.
  const taken = await startServing(['report', 'show', run, '--port', '0']);
  try {
    const busy = await runCli(['report', 'show', run, '--port', new URL(taken.url).port]);
    expect(busy.code).toBe(2);
    expect(busy.stderr).toContain(`port ${new URL(taken.url).port} is busy`);
  } finally {
    expect(await taken.stop()).toBe(0);
  }
  const notReport = await runCli(['report', 'show', path.join(dir, 'reports'), '--port', '0']);
  expect([notReport.code, notReport.stderr]).toEqual([
    2,
    `touchstone: ${path.join(dir, 'reports')}: no report.html or compare.html there\n`,
  ]);
  const badPort = await runCli(['report', 'show', run, '--port', '70000']);
  expect(badPort.code).toBe(2);
  expect(badPort.stderr).toContain('--port 70000 is not a port');
  const none = await runCli(['report', 'show'], {}, run);
  expect(none.stderr).toContain(
    'no reports/latest here (a run into reports/ makes it): name a report folder, e.g. touchstone report show reports/ci',
  );
});

test('report open hands the report to $BROWSER as a file URL (reports/latest when no folder is named); where no browser can start, it fails, or there is no display, it serves the report instead; a folder without a report or no such link is exit 2', async () => {
  const dir = scratch();
  mkdirSync(path.join(dir, 'run'));
  writeFileSync(path.join(dir, 'run', 'report.html'), '<!DOCTYPE html><title>r</title>');
  const seen = path.join(dir, 'seen.txt');
  const browser = path.join(dir, 'browser.mjs');
  writeFileSync(browser, `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(seen)}, process.argv[2]);\n`);
  const opened = await runCli(['report', 'open', path.join(dir, 'run')], { BROWSER: `"${process.execPath}" ${browser}` });
  expect(opened.code, opened.stderr).toBe(0);
  const url = `file://${path.join(dir, 'run', 'report.html')}`;
  expect(opened.stdout).toContain(`opened ${url}`);
  await expect.poll(() => (existsSync(seen) ? readFileSync(seen, 'utf8') : '')).toBe(url);

  const empty = await runCli(['report', 'open', dir], { BROWSER: 'true' });
  expect(empty.code).toBe(2);
  expect(empty.stderr).toContain('no report.html or compare.html there');

  // No browser showed the page: the report is served as `report show` serves it, saying why.
  const noBrowser: [string, NodeJS.ProcessEnv, string][] = [
    ['cannot start', { BROWSER: 'no-such-browser-command' }, 'cannot start no-such-browser-command (spawn no-such-browser-command ENOENT)'],
    // An opener that fails (no browser could be started) is no "opened".
    ['fails', { BROWSER: 'false' }, 'false exited with status 1: no browser showed it'],
  ];
  if (process.platform === 'linux')
    noBrowser.push([
      'no display',
      { BROWSER: undefined, DISPLAY: undefined, WAYLAND_DISPLAY: undefined },
      'no browser can be started here: no display (DISPLAY and WAYLAND_DISPLAY are unset) and no BROWSER set',
    ]);
  for (const [why, env, said] of noBrowser) {
    const served = await startServing(['report', 'open', path.join(dir, 'run'), '--port', '0'], { env, stderr: 'pipe' });
    try {
      expect(served.stderr(), why).toContain(`${said}; serving the report over HTTP instead`);
      const page = await fetch(served.url);
      expect([why, page.status, await page.text()]).toEqual([why, 200, '<!DOCTYPE html><title>r</title>']);
    } finally {
      expect(await served.stop('SIGINT'), why).toBe(0);
    }
  }

  // No folder named: reports/latest of the current folder, or a clear error when no run made it.
  const none = await runCli(['report', 'open'], { BROWSER: 'true' }, dir);
  expect(none.code).toBe(2);
  expect(none.stderr).toContain('no reports/latest here (a run into reports/ makes it): name a report folder');
  mkdirSync(path.join(dir, 'reports'));
  symlinkSync(path.join('..', 'run'), path.join(dir, 'reports', 'latest'));
  const latest = await runCli(['report', 'open'], { BROWSER: `"${process.execPath}" ${browser}` }, dir);
  expect(latest.code, latest.stderr).toBe(0);
  expect(latest.stdout).toContain(`opened file://${path.join(dir, 'reports', 'latest', 'report.html')}`);
});
