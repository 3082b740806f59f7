// End-to-end checks of `touchstone run` and `touchstone serve`, through the real command.
import { expect, test } from '@playwright/test';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Results } from '../core/results.js';
import { skipWithoutDebianChromium, withFilePage } from '../../test-support/debian-chromium.js';
import { validateResults } from '../report/write-reports.js';
import { PROJECT_ROOT, suitePaths } from '../core/suite-paths.js';
import { readWorldTokens } from '../suite/world-tokens.js';
import { loadSuites } from '../suite/suite-loader.js';
import { runCli, startServe, tokensFile } from '../../test-support/cli-process.js';
import { startReferenceService } from './embedded-reference.js';

const scratch = () => mkdtempSync(path.join(os.tmpdir(), 'touchstone-cli-test-'));
const readResults = (dir: string): Results => JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8'));

// Full runs take 20-50 s on a loaded 2-core machine: more than the project's default test timeout.
test.describe.configure({ mode: 'parallel', timeout: 180_000 });

test('without --tokens the run is INCOMPLETE, exit 4, naming every role it lacked, with an amber banner', async () => {
  const dir = scratch();
  const server = await startServe();
  try {
    const result = await runCli(['run', '--target', server.url, '--out', dir]);
    expect(result.code, result.stdout + result.stderr).toBe(4);
    expect(result.stdout).toContain('touchstone: INCOMPLETE');
    const results = readResults(dir);
    validateResults(results);
    expect(results.verdict).toBe('incomplete');
    expect(results.summary.FAIL + results.summary.ERROR).toBe(0);
    // Every role of the world but anonymous is missing, and each is named.
    expect(results.gaps.roles).toEqual(Object.keys(readWorldTokens()).sort());
    expect(results.gaps.untested).toContain('assignees.add');
    expect(results.requirements.find((r) => r.id === 'assignees.add')).toMatchObject({
      status: 'UNTESTED',
      missing: { roles: expect.arrayContaining(['repo-writer']) },
    });
    for (const role of ['repo-admin', 'org-owner', 'workflow']) expect(result.stdout).toContain(role);
    expect(readFileSync(path.join(dir, 'summary.md'), 'utf8')).toMatch(/^## ⚠️ touchstone: \*\*incomplete\*\*/);
    expect(readFileSync(path.join(dir, 'junit.xml'), 'utf8')).toContain('<property name="verdict" value="incomplete"/>');
    // A user who knowingly runs without tokens can say so (one suite is enough to show it: the
    // whole catalogue ran above).
    const allowed = await runCli([
      'run',
      '--target',
      server.url,
      '--suite',
      'assignees',
      '--out',
      path.join(dir, 'allowed'),
      '--allow-incomplete',
    ]);
    expect(allowed.code, allowed.stdout + allowed.stderr).toBe(0);
    expect(readResults(path.join(dir, 'allowed')).verdict).toBe('incomplete');

    skipWithoutDebianChromium(test);
    await withFilePage(path.join(dir, 'report.html'), async (page) => {
      await expect(page.getByTestId('verdict')).toHaveText('Incomplete');
      const banner = page.locator('header.verdict-banner');
      // Amber: the gradient runs from a dark orange to a gold, neither green nor red.
      expect(await banner.evaluate((e) => getComputedStyle(e).backgroundImage)).toBe(
        'linear-gradient(120deg, rgb(154, 77, 0), rgb(212, 167, 44))',
      );
      await expect(page.getByTestId('gap-roles')).toContainText('repo-admin');
      await expect(page.getByTestId('gap-roles')).toContainText('--tokens');
      await expect(page.getByTestId('gap-untested')).toContainText('assignees.add');
    });
  } finally {
    await server.stop();
  }
});

test('serve --fault: a reference switched into a fault is judged non-conforming, citing the requirement it breaks; an unknown fault is exit 2', async () => {
  const dir = scratch();
  const server = await startServe(['--fault', 'pagination.no-link-header', '--fault', 'limits.owner-limit-ignored']);
  try {
    const result = await runCli(['run', '--target', server.url, '--tokens', tokensFile(dir), '--out', dir], {
      ADMIN_TOKEN: readWorldTokens()['repo-admin'],
    });
    expect(result.code).toBe(1);
    const failed = Object.fromEntries(
      readResults(dir)
        .cases.filter((c) => c.outcome === 'FAIL')
        .map((c) => [c.id, c.failure?.requirement]),
    );
    expect(failed).toEqual({
      'artifacts/list-pages': 'pagination.link-relations',
      'assignees/list-pages-of-a-large-repository': 'pagination.link-relations',
      'assistant/days-per-page': 'pagination.per-page-repeated',
      'assistant/seat-pages': 'pagination.link-relations',
      'deployment-protection/apps-pages': 'pagination.link-relations',
      'interaction-limits/repo-conflict-with-org-limit': 'interaction-limits.repo-conflict-409',
      'interaction-limits/repo-conflict-with-user-limit': 'interaction-limits.repo-conflict-409',
      'variables/list-pages': 'pagination.link-relations',
    });
    expect(readResults(dir).verdict).toBe('non-conforming');
    // repro.sh runs each failing case again against the same target, as the reports say.
    const repro = readFileSync(path.join(dir, 'repro.sh'), 'utf8');
    for (const id of Object.keys(failed)) expect(repro).toContain(`run --target ${server.url} --tokens ${tokensFile(dir)} --only ${id}\n`);
    const again = readResults(dir).cases.find((c) => c.id === 'interaction-limits/repo-conflict-with-org-limit')!;
    const rerun = await runCli([...again.rerun!.split(' ').slice(2, -2), '--only', again.id, '--out', scratch()], {
      ADMIN_TOKEN: readWorldTokens()['repo-admin'],
    });
    expect(rerun.code).toBe(1);
    expect(rerun.stdout).toContain('FAIL  interaction-limits/repo-conflict-with-org-limit');
  } finally {
    await server.stop();
  }
  const unknown = await runCli(['serve', '--port', '0', '--fault', 'no.such-fault']);
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain('unknown fault no.such-fault; the reference has: auth.bearer-refused,');
});

// Issue 30: implementations written from the spec alone were judged non-conforming by these
// cases for choices the spec leaves open. With the reference switched into those choices (its
// built-in variations), each case conforms, and so do the choices the cases record at MAY.
const IMPLEMENTERS_CHOICES: Record<string, string[]> = {
  'social-accounts/write-access': ['social.duplicate-accepted'],
  'variables/read-access': ['variables.collaborators-manage'],
  'variables/write-access': ['variables.collaborators-manage'],
  'assistant/owner-only': [],
  'devenv-secrets/read-access': ['secrets.reads-any-role'],
  'assistant/cancellation-ends': ['assistant.cancellation-date-first-day-without'],
  'interaction-limits/repo-put-expiry-durations': ['limits.calendar-months'],
};

test("serve --variant: the cases issue 30 found asserting more than the spec conform with the implementers' choices switched on", async () => {
  const dir = scratch();
  // And the unknown body field that conventions/unknown-and-oversized-bodies refused at MUST: now a choice.
  const variants = [...new Set([...Object.values(IMPLEMENTERS_CHOICES).flat(), 'errors.unknown-fields-ignored'])];
  const server = await startServe(variants.flatMap((id) => ['--variant', id]));
  try {
    const only = [...Object.keys(IMPLEMENTERS_CHOICES), 'conventions/unknown-body-fields'].flatMap((id) => ['--only', id]);
    const result = await runCli(['run', '--target', server.url, '--tokens', tokensFile(dir), ...only, '--out', dir], {
      ADMIN_TOKEN: readWorldTokens()['repo-admin'],
    });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const results = readResults(dir);
    expect(results.verdict).toBe('conforming');
    expect(Object.fromEntries(results.cases.map((c) => [c.id, c.outcome]))).toEqual({
      ...Object.fromEntries(Object.keys(IMPLEMENTERS_CHOICES).map((id) => [id, 'PASS'])),
      // The case that records the reference's reading warns, naming it a choice.
      'conventions/unknown-body-fields': 'WARN',
    });
    const warned = results.cases.find((c) => c.id === 'conventions/unknown-body-fields')!;
    expect(warned.broken).toEqual(['errors.unknown-fields-422']);
    expect(results.requirements.find((r) => r.id === 'errors.unknown-fields-422')).toMatchObject({ level: 'MAY', basis: 'choice' });
  } finally {
    await server.stop();
  }
  const unknown = await runCli(['serve', '--port', '0', '--variant', 'no.such-variation']);
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain('unknown variation no.such-variation; the reference has: ');
});

test('progress: a line per case with the count and, once there is a pace, the time left; colour only when asked for, never with NO_COLOR', async () => {
  const [plain, coloured, refused] = await Promise.all([
    runCli(['run', '--suite', 'conventions', '--out', scratch()], { NO_COLOR: undefined }),
    runCli(['run', '--suite', 'conventions', '--out', scratch()], { FORCE_COLOR: '1', NO_COLOR: undefined }),
    runCli(['run', '--suite', 'conventions', '--out', scratch()], { FORCE_COLOR: '1', NO_COLOR: '1' }),
  ]);
  for (const r of [plain, coloured, refused]) expect(r.code, r.stderr).toBe(0);
  // Piped output (as here, and in CI logs) has no escape codes.
  expect(plain.stdout).not.toContain('\u001b[');
  expect(plain.stdout).toMatch(/^ +6\/\d+ PASS {2}conventions\/\S+ +\(~[\d.]+ (ms|s) left\)$/m);
  expect(coloured.stdout).toContain('\u001b[32mPASS \u001b[39m');
  expect(coloured.stdout).toContain('touchstone: \u001b[32mCONFORMING\u001b[39m');
  expect(refused.stdout).not.toContain('\u001b[');
});

test('each run has a Playwright output folder of its own: runs side by side in one project never clear each other’s', async () => {
  // Found by CI: runs shared .touchstone-tmp/test-output, and one cleared it while another wrote
  // there (a case in ERROR). A file where that folder was shows that no run uses it any more.
  const shared = path.join(PROJECT_ROOT, '.touchstone-tmp', 'test-output');
  rmSync(shared, { recursive: true, force: true });
  mkdirSync(path.dirname(shared), { recursive: true });
  writeFileSync(shared, 'not a folder');
  try {
    const runs = await Promise.all([0, 1].map(() => runCli(['run', '--only', 'conventions/bearer-scheme', '--out', scratch()])));
    for (const r of runs) expect(r.code, r.stdout + r.stderr).toBe(0);
  } finally {
    rmSync(shared, { force: true });
  }
});

test('--suite narrows the scope: one suite run alone conforms for what its cases cite', async () => {
  const out = scratch();
  const result = await runCli(['run', '--suite', 'assignees', '--out', out]);
  expect(result.code, result.stdout + result.stderr).toBe(0);
  const results = readResults(out);
  expect(results).toMatchObject({ verdict: 'conforming', scope: { suites: ['assignees'] }, gaps: { untested: [] } });
  const cited = new Set(results.cases.flatMap((c) => c.requirements));
  expect(results.requirements.map((r) => r.id).sort()).toEqual([...cited].sort());
  expect(cited.has('interaction-limits.repo-put')).toBe(false);
  expect(result.stdout).toContain('every MUST requirement in scope was checked and held (scope: suite assignees)');
});

test('--only runs one case (its scope only); one that names no case is exit 2; a passing run writes no repro.sh', async () => {
  const out = scratch();
  const result = await runCli(['run', '--only', 'assistant/billing', '--out', out]);
  expect(result.code, result.stdout + result.stderr).toBe(0);
  const results = readResults(out);
  expect(results.cases.map((c) => c.id)).toEqual(['assistant/billing']);
  expect(results).toMatchObject({ verdict: 'conforming', scope: { suites: [], only: ['assistant/billing'] } });
  expect(existsSync(path.join(out, 'repro.sh'))).toBe(false);
  const unknown = await runCli(['run', '--only', 'assistant/no-such-case', '--out', scratch()]);
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain('--only names no case: assistant/no-such-case');
});

test('a target where nothing listens exits 3 with a clear message', async () => {
  const probe = http.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as AddressInfo;
  await new Promise((r) => probe.close(r));
  const result = await runCli(['run', '--target', `http://127.0.0.1:${port}`, '--out', scratch()]);
  expect(result.code).toBe(3);
  expect(result.stderr).toContain(`target http://127.0.0.1:${port} is unreachable`);
});

test('usage and configuration errors exit 2 with a message naming the problem', async () => {
  const unknownSuite = await runCli(['run', '--suite', 'no-such-suite', '--out', scratch()]);
  expect(unknownSuite.code).toBe(2);
  expect(unknownSuite.stderr).toContain('unknown suite no-such-suite');
  const missingTokens = await runCli(['run', '--target', 'http://127.0.0.1:9', '--tokens', '/nonexistent/tokens.yaml']);
  expect(missingTokens.code).toBe(2);
  expect(missingTokens.stderr).toContain('--tokens /nonexistent/tokens.yaml');
  const badTarget = await runCli(['run', '--target', 'ftp://example']);
  expect(badTarget.code).toBe(2);
  const unknownFlag = await runCli(['run', '--nonsense']);
  expect(unknownFlag.code).toBe(2);
  const badWorld = path.join(scratch(), 'world.yaml');
  const badText = readFileSync(suitePaths.world, 'utf8').replace('private: true', 'private: maybe');
  writeFileSync(badWorld, badText);
  const serveBadWorld = await runCli(['serve', '--port', '0', '--world', badWorld]);
  expect(serveBadWorld.code).toBe(2);
  // The line and column of the bad value, so the user can go straight to it.
  const before = badText.slice(0, badText.indexOf('private: maybe') + 'private: '.length).split('\n');
  expect(serveBadWorld.stderr).toBe(
    `touchstone: ${badWorld}: line ${before.length}:${before.at(-1)!.length + 1}: /repositories/1/private must be boolean\n`,
  );
  const badPort = await runCli(['serve', '--port', '70000']);
  expect(badPort.code).toBe(2);
  expect(badPort.stderr).toContain('--port 70000 is not a port number');
  // A reports folder that cannot be made: refused before any case (it was a crash's stack
  // trace under a file, and under /proc a run that never ended, node's mkdir looping).
  for (const out of ['/dev/null/reports', '/proc/touchstone-no-such/reports']) {
    const badOut = await runCli(['run', '--only', 'assignees/list-small-repository', '--out', out]);
    expect(badOut.code, out).toBe(2);
    expect(badOut.stderr).toMatch(new RegExp(`^touchstone: --out ${out} cannot hold the reports: E(NOTDIR|NOENT)`));
    expect(badOut.stdout).not.toContain('PASS');
  }
});

/** A reference behind a proxy of this test's, which counts the requests and may change each answer's status and headers. */
async function startProxiedReference(change: (status: number, headers: http.IncomingHttpHeaders) => number = (status) => status) {
  const reference = await startReferenceService();
  const upstream = new URL(reference.url);
  let requests = 0;
  const proxy = http.createServer((req, res) => {
    requests++;
    const forward = http.request(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        const headers = { ...answer.headers };
        res.writeHead(change(answer.statusCode!, headers), headers);
        answer.pipe(res);
      },
    );
    // The reference may answer (413) before reading a whole oversized body, and close: the
    // upload then fails, but the answer it already gave is passed on whole.
    forward.on('error', () => {
      if (!res.headersSent) res.destroy();
    });
    req.pipe(forward);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  return {
    url,
    requests: () => requests,
    close: async () => {
      proxy.close();
      await reference.close();
    },
  };
}

/** A reference that breaks two rules: no link header, and 409 turned into 200. */
const startMutantTarget = () =>
  startProxiedReference((status, headers) => {
    delete headers.link;
    return status === 409 ? 200 : status;
  });

test('--workers 2 with two --target URLs: each worker judges its own target, and the run conforms; a worker without a target is exit 2', async () => {
  const dir = scratch();
  const targets = await Promise.all([startProxiedReference(), startProxiedReference()]);
  try {
    const args = [
      'run',
      '--suite',
      'interaction-limits',
      '--tokens',
      tokensFile(dir),
      '--workers',
      '2',
      ...targets.flatMap((t) => ['--target', t.url]),
    ];
    const result = await runCli([...args, '--out', dir], { ADMIN_TOKEN: readWorldTokens()['repo-admin'] });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const cases = loadSuites(suitePaths.service, ['interaction-limits'])[0].cases.length;
    expect(result.stdout).toContain(`running ${cases} cases against ${targets[0].url}, ${targets[1].url} (2 workers)`);
    for (const target of targets) expect(target.requests()).toBeGreaterThan(20);
    const short = await runCli(['run', '--target', targets[0].url, '--tokens', tokensFile(dir), '--workers', '2', '--out', scratch()]);
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('--workers 2 needs 2 --target URLs, one isolated state per worker (got 1)');
  } finally {
    await Promise.all(targets.map((t) => t.close()));
  }
});

test.describe('a target that breaks two rules', () => {
  test.describe.configure({ mode: 'serial' });
  let dir: string;
  let result: Awaited<ReturnType<typeof runCli>>;

  test.beforeAll(async () => {
    // A full run: the hook gets the file's full-run timeout, not the default one.
    test.setTimeout(180_000);
    dir = scratch();
    const mutant = await startMutantTarget();
    try {
      result = await runCli(['run', '--target', mutant.url, '--tokens', tokensFile(dir), '--out', dir], {
        ADMIN_TOKEN: readWorldTokens()['repo-admin'],
      });
    } finally {
      await mutant.close();
    }
  });

  test('fails exactly the cases it breaks, cites their requirements, and exits 1', () => {
    expect(result.code).toBe(1);
    const results = readResults(dir);
    const failed = Object.fromEntries(results.cases.filter((c) => c.outcome === 'FAIL').map((c) => [c.id, c.failure?.requirement]));
    expect(failed).toEqual({
      'artifacts/list-pages': 'pagination.link-relations',
      'assignees/list-pages-of-a-large-repository': 'pagination.link-relations',
      'assistant/days-per-page': 'pagination.per-page-repeated',
      'assistant/seat-pages': 'pagination.link-relations',
      // 409 turned into 200: concurrent and stale writes look accepted.
      'contents/write-concurrent': 'contents.write-concurrent',
      'contents/write-sha-rules': 'contents.write-stale-sha',
      'deployment-protection/apps-pages': 'pagination.link-relations',
      'interaction-limits/repo-conflict-with-org-limit': 'interaction-limits.repo-conflict-409',
      'interaction-limits/repo-conflict-with-user-limit': 'interaction-limits.repo-conflict-409',
      'variables/list-pages': 'pagination.link-relations',
      // A variable not selected answers its repositories (409 turned into 200).
      'variables/not-selected-409': 'variables.not-selected-409',
    });
    const conflict = results.cases.find((c) => c.id === 'interaction-limits/repo-conflict-with-user-limit')!;
    expect(conflict.failure?.reproduce).toMatch(
      /^curl .* -X PUT 'http:\/\/127\.0\.0\.1:\d+\/repos\/sheriff\/town\/interaction-limits' .*"Authorization: Bearer \$TOKEN"/,
    );
    expect(JSON.stringify(results)).not.toContain(readWorldTokens()['limited-user-owner']);
    expect(result.stdout).toContain('touchstone: NON-CONFORMING');
  });

  test('its report.html, opened in Chromium, shows the failing matrix cells and the failure details', async () => {
    skipWithoutDebianChromium(test);
    await withFilePage(path.join(dir, 'report.html'), async (page) => {
      await expect(page.getByTestId('verdict')).toHaveText('Non-conforming');
      const cell = page.locator('[data-cell="PUT /repos/{owner}/{repo}/interaction-limits|state"]');
      await expect(cell).toContainText('FAIL');
      const failure = page.getByTestId('failure').filter({ hasText: 'repo-conflict-with-user-limit' });
      await expect(failure).toContainText('interaction-limits.repo-conflict-409');
      await expect(failure).toContainText('409 on 28 and 29 arises when a limit is set on the owning user or organization.');
      await expect(failure).toContainText('status 409');
      await expect(failure.getByTestId('reproduce')).toContainText('/repos/sheriff/town/interaction-limits');
    });
  });
});
