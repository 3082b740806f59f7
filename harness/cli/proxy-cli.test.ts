// `touchstone proxy` and `touchstone cassette` as a user runs them: the address line, a
// clean stop with the summary, exit codes, and clear errors for bad input.
import { expect, test } from '@playwright/test';
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestClient } from '../../test-support/proxy-test-client.js';
import { startFidelityFixture, type FixtureServer } from '../../test-support/fidelity-fixture.js';
import { PROJECT_ROOT } from '../core/suite-paths.js';
import { slowHead } from '../../test-support/slow-clients.js';
import { runCli, startServe, TOUCHSTONE_BIN } from '../../test-support/cli-process.js';
import { listenWarning } from './proxy.js';

const REFERENCE = path.join(PROJECT_ROOT, 'cassettes/reference');
const ONE = path.join(REFERENCE, 'assignees/add-assignee.cassette.json');

test.describe.configure({ mode: 'parallel' });

/** `touchstone proxy ARGS` in a child process: its address once it listens; stop() sends SIGTERM and gives its exit code and output. */
async function startProxy(args: string[]) {
  const child = spawn(process.execPath, [TOUCHSTONE_BIN, 'proxy', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (d: Buffer) => {
      const match = /^touchstone: proxy \(\w[\w-]*\) on (http:\/\/127(?:\.\d+){3}:\d+)\n/.exec(d.toString());
      if (match) resolve(match[1]);
      else reject(new Error(`unexpected first line: ${d}`));
    });
    child.once('exit', (code) => reject(new Error(`proxy exited ${code}: ${stderr}`)));
  });
  const stop = () =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      child.once('exit', (code) => resolve({ code, stdout, stderr }));
      child.kill('SIGTERM');
    });
  return { url, stop, pid: child.pid! };
}

test('proxy --mode replay prints its address first, serves the cassette a request names, and SIGTERM ends it with the summary', async () => {
  const proxy = await startProxy(['--mode', 'replay', '--cassette', REFERENCE]);
  const client = createTestClient();
  try {
    const reset = await client.send(proxy.url, {
      method: 'POST',
      path: '/_conformance/reset',
      headers: [['Accept', 'application/json']],
      cassette: 'assignees/add-assignee',
    });
    expect(reset.status).toBe(204);
    const miss = await client.send(proxy.url, { path: '/nowhere', cassette: 'assignees/add-assignee' });
    expect(miss.status).toBe(599);
  } finally {
    client.close();
  }
  const { code, stdout } = await proxy.stop();
  expect(code).toBe(0);
  expect(stdout).toContain('1 answer replayed');
  expect(stdout).toContain('assignees/add-assignee: GET /nowhere: touchstone: no recorded interaction matches this request');
  expect(stdout).toMatch(/assignees\/add-assignee: 3 recorded interactions never asked for \(seq 2, 3, 4\)/);
});

test('--fail-on-unused makes a stop with unused recordings exit 1', async () => {
  const proxy = await startProxy(['--mode', 'replay', '--cassette', ONE, '--fail-on-unused']);
  expect((await proxy.stop()).code).toBe(1);
});

test('bad proxy arguments are usage errors (exit 2) with the reason', async () => {
  const noTarget = await runCli(['proxy', '--mode', 'record', '--cassette', '/tmp/x.cassette.json']);
  expect(noTarget.code).toBe(2);
  expect(noTarget.stderr).toContain('--target is required in record mode');
  const badMode = await runCli(['proxy', '--mode', 'rewind', '--cassette', ONE]);
  expect(badMode.code).toBe(2);
  expect(badMode.stderr).toContain('Invalid values');
  // Replay answers from recordings alone: without any it refuses to start rather than answer 599.
  const missing = await runCli(['proxy', '--mode', 'replay', '--cassette', '/tmp/no-such-recording.cassette.json', '--port', '0']);
  expect(missing.code).toBe(2);
  expect(missing.stderr).toContain('replay has nothing to answer from: /tmp/no-such-recording.cassette.json does not exist');
  const empty = mkdtempSync(path.join(os.tmpdir(), 'touchstone-proxy-empty-'));
  try {
    const folder = await runCli(['proxy', '--mode', 'replay', '--cassette', empty, '--port', '0']);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toContain(`replay has nothing to answer from: ${empty} holds no recordings (*.cassette.json)`);
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
});

test('cassette lint finds a poisoned cassette and a missing sidecar; clean ones pass', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-lint-'));
  try {
    expect((await runCli(['cassette', 'lint', REFERENCE])).code).toBe(0);
    cpSync(path.join(REFERENCE, 'conventions'), dir, { recursive: true });
    const poisoned = path.join(dir, 'poisoned.cassette.json');
    writeFileSync(poisoned, readFileSync(ONE, 'utf8').replace('"name":', '"__proto__": {"polluted": true}, "name":'));
    // A response body in a sidecar that is not there.
    const cassette = JSON.parse(readFileSync(ONE, 'utf8'));
    cassette.interactions[0].response.body = { file: `missing-sidecar.blobs/sha256-${'0'.repeat(64)}`, sha256: '0'.repeat(64), size: 3 };
    writeFileSync(path.join(dir, 'missing-sidecar.cassette.json'), JSON.stringify(cassette, null, 2));
    const result = await runCli(['cassette', 'lint', dir]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('poisoned.cassette.json');
    expect(result.stdout).toContain('__proto__');
    expect(result.stdout).toMatch(/missing-sidecar.blobs\/sha256-0+: cannot read/);
    expect(result.stdout).toMatch(/2 problems/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('cassette diff exits 0 for the same recording and 1 with the JSON path of a change', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-diff-'));
  try {
    const changed = path.join(dir, 'changed.cassette.json');
    writeFileSync(changed, readFileSync(ONE, 'utf8').replace('"login": "defunkt"', '"login": "defunct"'));
    expect((await runCli(['cassette', 'diff', ONE, ONE])).code).toBe(0);
    const result = await runCli(['cassette', 'diff', ONE, changed]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('interactions[1].response.body.$.assignee.login: "defunkt" → "defunct"');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('cassette diff of two folders lists the cassettes added, removed and changed (exit 1), identical folders exit 0; a folder against a file, or one without cassettes, is exit 2', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-diff-folders-'));
  try {
    const [a, b, same, empty] = ['a', 'b', 'same', 'empty'].map((name) => path.join(dir, name));
    const original = readFileSync(ONE, 'utf8');
    const write = (file: string, text = original) => {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, text);
    };
    write(path.join(a, 'equal.cassette.json'));
    write(path.join(a, 'nested/changed.cassette.json'));
    write(path.join(a, 'removed.cassette.json'));
    write(path.join(b, 'equal.cassette.json'));
    write(path.join(b, 'nested/changed.cassette.json'), original.replace('"login": "defunkt"', '"login": "defunct"'));
    write(path.join(b, 'nested/deeper/added.cassette.json'));
    cpSync(a, same, { recursive: true });
    mkdirSync(empty);

    const result = await runCli(['cassette', 'diff', a, b]);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toBe(
      [
        `+ nested/deeper/added.cassette.json: only in ${b}`,
        `- removed.cassette.json: only in ${a}`,
        '~ nested/changed.cassette.json:',
        '  ~ interactions[1].response.body.$.assignee.login: "defunkt" → "defunct"',
        'touchstone: 3 of 4 cassettes differ: 1 added, 1 removed, 1 changed',
        '',
      ].join('\n'),
    );
    const identical = await runCli(['cassette', 'diff', a, same]);
    expect(identical.code, identical.stderr).toBe(0);
    expect(identical.stdout).toBe('touchstone: no differences (3 cassettes compared)\n');

    const mixed = await runCli(['cassette', 'diff', ONE, a]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain(`cassette diff compares two cassettes or two folders of them: ${a} is a folder, ${ONE} a file`);
    const none = await runCli(['cassette', 'diff', a, empty]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(`${empty} holds no cassettes (*.cassette.json) to compare`);
    // A broken cassette in a folder is the error that names it, as for a single cassette.
    write(path.join(b, 'broken.cassette.json'), '{');
    const broken = await runCli(['cassette', 'diff', a, b]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain(`${path.join(b, 'broken.cassette.json')}: not a cassette: not valid JSON`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a --host other machines can reach is refused (exit 2, nothing listens) unless --allow-remote says it is meant, and then it warns', async () => {
  for (const host of ['0.0.0.0', '192.168.1.10', '::']) {
    const refused = await runCli(['proxy', '--mode', 'replay', '--cassette', ONE, '--host', host, '--port', '0']);
    expect(refused.code, host).toBe(2);
    expect(refused.stderr).toContain(`--host ${host} can be reached from other machines`);
    expect(refused.stderr).toContain('add --allow-remote');
    expect(refused.stdout).not.toContain('touchstone: proxy');
  }
  // Loopback addresses need no flag; the flag turns the refusal into a warning (checked without
  // listening on a public address: tests bind to this machine only).
  for (const host of ['127.0.0.1', '127.0.0.2', '::1', 'localhost']) expect(listenWarning(host, false), host).toBeUndefined();
  expect(listenWarning('0.0.0.0', true)).toMatch(/^touchstone: warning: --host 0\.0\.0\.0 can be reached/);
  const proxy = await startProxy(['--mode', 'replay', '--cassette', ONE, '--host', '127.0.0.2']);
  expect((await proxy.stop()).code).toBe(0);
});

test('--head-timeout (and the other client timeouts) set how long proxy and serve wait for a slow client; a bad value is exit 2', async () => {
  // The defaults give a head 10 s; with 1 s a head that never ends is cut well inside 6 s.
  const proxy = await startProxy(['--mode', 'replay', '--cassette', REFERENCE, '--head-timeout', '1']);
  const serve = await startServe(['--head-timeout', '1', '--idle-timeout', '2']);
  try {
    for (const url of [proxy.url, serve.url]) {
      const head = await slowHead(url, 6_000);
      expect(head.closed, url).toBe(true);
      expect(head.answer, url).toMatch(/^HTTP\/1\.1 408 /);
    }
  } finally {
    await proxy.stop();
    await serve.stop();
  }
  for (const [command, flag] of [
    ['proxy', '--head-timeout'],
    ['serve', '--request-timeout'],
    ['serve', '--idle-timeout'],
  ]) {
    const extra = command === 'proxy' ? ['--mode', 'replay', '--cassette', REFERENCE] : [];
    for (const value of ['0', '-1', 'soon']) {
      const bad = await runCli([command, ...extra, flag, value]);
      expect(bad.code, `${command} ${flag} ${value}`).toBe(2);
      expect(bad.stderr).toContain(`${flag} `);
    }
  }
  expect((await runCli(['serve', '--help'])).stdout).toMatch(
    /--head-timeout\s+seconds\s+a\s+client\s+may\s+take\s+to\s+send\s+a\s+request\s+head\s+\(default\s+10\s+s\)/,
  );
});

test.describe('recording over an existing cassette, misses, verify, logs and cassette show', () => {
  let fixture: FixtureServer;
  let dir: string;
  const client = createTestClient();
  test.beforeEach(async () => {
    fixture = await startFidelityFixture();
    dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-proxy-cli-'));
  });
  test.afterEach(async () => {
    await fixture.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const interactions = (file: string) =>
    (JSON.parse(readFileSync(file, 'utf8')) as { interactions: { request: { url: string } }[] }).interactions.map((i) => i.request.url);

  test('touchstone proxy --mode record on an existing cassette does not lose a recorded interaction', async () => {
    const file = path.join(dir, 's1.cassette.json');
    const record = ['--mode', 'record', '--target', fixture.url, '--cassette', file];
    const first = await startProxy(record);
    await client.send(first.url, { path: '/counter' });
    await client.send(first.url, { path: '/length?page=1' });
    expect((await first.stop()).code).toBe(0);
    expect(interactions(file)).toEqual(['/counter', '/length?page=1']);

    // The same command again, with one request: the cassette keeps both interactions.
    const again = await startProxy(record);
    expect((await client.send(again.url, { path: '/counter' })).status).toBe(200);
    const stopped = await again.stop();
    expect(stopped.code).toBe(0);
    expect(interactions(file)).toEqual(['/counter', '/length?page=1']);
    expect(stopped.stdout).toContain(
      's1: already recorded, replayed and kept as it was (record mode once; --record-mode all re-records it)',
    );
    // --record-mode all is how to replace it.
    const all = await startProxy([...record, '--record-mode', 'all']);
    await client.send(all.url, { path: '/counter' });
    await all.stop();
    expect(interactions(file)).toEqual(['/counter']);
  });

  test('the second identical GET after one recorded gets the recorded answer again (--exhausted repeat-last by default; error on request)', async () => {
    const file = path.join(dir, 'one.cassette.json');
    const recorder = await startProxy(['--mode', 'record', '--target', fixture.url, '--cassette', file]);
    await client.send(recorder.url, { path: '/counter' });
    await recorder.stop();
    const statuses = async (extra: string[]) => {
      const replayer = await startProxy(['--mode', 'replay', '--cassette', file, ...extra]);
      const seen = [
        (await client.send(replayer.url, { path: '/counter' })).status,
        (await client.send(replayer.url, { path: '/counter' })).status,
      ];
      await replayer.stop();
      return seen;
    };
    expect(await statuses([])).toEqual([200, 200]);
    expect(await statuses(['--exhausted', 'error'])).toEqual([200, 599]);
  });

  test('--fail-on-miss: a replay with a miss exits 1 and the summary says why; --log warn (the default) gives the miss a line on stderr, --log info every request', async () => {
    const file = path.join(dir, 'misses.cassette.json');
    const recorder = await startProxy(['--mode', 'record', '--target', fixture.url, '--cassette', file, '--log', 'info']);
    await client.send(recorder.url, { path: '/counter?access_token=tok-L0g-secret' });
    const recorded = await recorder.stop();
    expect(recorded.stderr).toBe('touchstone: proxy: recorded misses #1 GET /counter?access_token=<redacted> -> 200\n');

    const quiet = await startProxy(['--mode', 'replay', '--cassette', file]);
    await client.send(quiet.url, { path: '/counter?access_token=tok-L0g-secret' });
    await client.send(quiet.url, { path: '/nowhere' });
    const lenient = await quiet.stop();
    expect(lenient.code).toBe(0);
    expect(lenient.stderr).toBe('touchstone: proxy: miss misses GET /nowhere -> 599: no recorded interaction matches this request\n');
    expect(lenient.stdout).not.toContain('exit 1');

    const strict = await startProxy(['--mode', 'replay', '--cassette', file, '--fail-on-miss', '--log', 'info']);
    await client.send(strict.url, { path: '/counter?access_token=tok-L0g-secret' });
    await client.send(strict.url, { path: '/nowhere' });
    const failed = await strict.stop();
    expect(failed.code).toBe(1);
    expect(failed.stdout.split('\n')[0]).toMatch(/^touchstone: proxy \(replay\) on http:/);
    expect(failed.stdout).toMatch(/touchstone: exit 1: 1 request missed \(--fail-on-miss\)\n$/);
    expect(failed.stderr.split('\n')).toEqual([
      'touchstone: proxy: hit misses #1 GET /counter?access_token=<redacted> -> 200',
      'touchstone: proxy: miss misses GET /nowhere -> 599: no recorded interaction matches this request',
      '',
    ]);
    expect(failed.stderr + failed.stdout).not.toContain('tok-L0g-secret');
  });

  test('--mode verify exits 1 when a live answer no longer matches the recording (0 with --no-fail-on-diff, 0 against the unchanged target); its summary counts what it forwarded', async () => {
    const file = path.join(dir, 'verified.cassette.json');
    const recorder = await startProxy(['--mode', 'record', '--target', fixture.url, '--cassette', file]);
    await client.send(recorder.url, { path: '/counter' });
    await client.send(recorder.url, { path: '/length?page=1' });
    expect((await recorder.stop()).code).toBe(0);
    const verify = async (extra: string[] = []) => {
      const verifier = await startProxy(['--mode', 'verify', '--target', fixture.url, '--cassette', file, ...extra]);
      await client.send(verifier.url, { path: '/counter' });
      await client.send(verifier.url, { path: '/length?page=1' });
      return verifier.stop();
    };

    const unchanged = await verify();
    expect(unchanged.code).toBe(0);
    expect(unchanged.stdout).toContain(
      'touchstone: proxy (verify): 1 cassette, 2 requests forwarded: 2 matched the recording, 0 differed from it, 0 had no recording\n',
    );
    expect(unchanged.stdout).not.toMatch(/replayed|exit 1/);

    await client.send(fixture.url, { method: 'PUT', path: '/counter', body: '5' }); // the target changed
    const changed = await verify();
    expect(changed.code).toBe(1);
    expect(changed.stdout).toContain('2 requests forwarded: 1 matched the recording, 1 differed from it, 0 had no recording\n');
    expect(changed.stdout).toContain('    verified #1 GET /counter\n      changed response.body.$.counter: 0 -> 5\n');
    expect(changed.stdout).toMatch(/\ntouchstone: exit 1: 1 answer differed from the recording \(--fail-on-diff\)\n$/);
    expect(changed.stderr).toContain('touchstone: proxy: verified verified #1 GET /counter -> 200: 1 difference from the recording');

    const reported = await verify(['--no-fail-on-diff']);
    expect(reported.code).toBe(0);
    expect(reported.stdout).toContain('1 differed from it');
    expect(reported.stdout).not.toContain('exit 1');

    // Verify's gate only: another mode takes its default, and refuses --no-fail-on-diff.
    const replay = await startProxy(['--mode', 'replay', '--cassette', file, '--fail-on-diff']);
    expect((await replay.stop()).code).toBe(0);
    const refused = await runCli(['proxy', '--mode', 'replay', '--cassette', file, '--no-fail-on-diff']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--no-fail-on-diff goes with --mode verify; --mode replay compares no answers with a recording');
  });

  test('cassette show reads the journal of a recording under way, then the cassette: interactions, misses, redactions without values; --json for machines', async () => {
    const file = path.join(dir, 'shown.cassette.json');
    const secrets = path.join(dir, 'secrets.yaml');
    writeFileSync(secrets, 'admin: tok-Sh0w-secret\n');
    const recorder = await startProxy(['--mode', 'record', '--target', fixture.url, '--cassette', file, '--secrets', secrets]);
    await client.send(recorder.url, { path: '/counter', headers: [['Authorization', 'Bearer tok-Sh0w-secret']] });
    await client.send(recorder.url, { path: '/length?page=1&api_key=other-Sh0w-value' });
    const live = await runCli(['cassette', 'show', file]);
    expect(live.code, live.stderr).toBe(0);
    expect(live.stdout).toBe(
      [
        `${file}: not written yet`,
        `${file}.journal: being recorded by process ${recorder.pid}: 2 interactions so far`,
        '  #1 GET /counter -> 200 (request 0 B, response 13 B)',
        '  #2 GET /length?page=1&api_key=<redacted> -> 200 (request 0 B, response 12 B)',
        'redacted: known once the cassette is written',
        'secrets: <secret:admin> in 1 place, <redacted> in 1 place',
        '',
      ].join('\n'),
    );
    // The journal's own path works too.
    expect((await runCli(['cassette', 'show', `${file}.journal`])).stdout).toBe(live.stdout);
    await recorder.stop();

    const done = await runCli(['cassette', 'show', file, '--json']);
    expect(done.code, done.stderr).toBe(0);
    const shown = JSON.parse(done.stdout);
    expect(shown.journal).toBeUndefined();
    expect(
      shown.cassette.interactions.map((i: { method: string; url: string; status: number }) => `${i.method} ${i.url} ${i.status}`),
    ).toEqual(['GET /counter 200', 'GET /length?page=1&api_key=%3Credacted%3E 200']);
    expect(shown.redactions).toEqual({
      fields: ['request.headers.authorization', 'request.query.api_key'],
      secrets: [{ name: 'admin', places: 1 }],
      redacted: 1,
    });
    expect(done.stdout + live.stdout).not.toMatch(/tok-Sh0w-secret|other-Sh0w-value/);

    // A miss of a recording (record mode once over the cassette, now recorded) is in the journal while it runs.
    const again = await startProxy(['--mode', 'record', '--target', fixture.url, '--cassette', file, '--secrets', secrets]);
    await client.send(again.url, { path: '/nowhere?token=tok-Sh0w-secret' });
    const during = await runCli(['cassette', 'show', file]);
    expect(during.stdout).toContain(`${file}.journal: being recorded by process ${again.pid}: 0 interactions so far\n  1 miss:\n`);
    expect(during.stdout).toContain('    GET /nowhere?token=<secret:admin>: no recorded interaction matches this request\n');
    await again.stop();
    const missing = await runCli(['cassette', 'show', path.join(dir, 'none.cassette.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('none.cassette.json: no such cassette, and no journal of one being recorded');
  });
});

test('proxy --help puts what to do first (mode, record mode, target, cassette) and the client timeouts last; cassette --help lists show', async () => {
  const help = (await runCli(['proxy', '--help'])).stdout;
  const at = (option: string) => help.indexOf(`  --${option} `);
  const order = ['mode', 'record-mode', 'target', 'cassette', 'fail-on-miss', 'log', 'head-timeout', 'request-timeout', 'idle-timeout'];
  for (const option of order) expect(at(option), option).toBeGreaterThan(0);
  expect(order.map(at)).toEqual(order.map(at).sort((a, b) => a - b));
  expect(help).toMatch(/--exhausted[\s\S]*\[default: "repeat-last"\]/);
  const cassette = await runCli(['cassette', '--help']);
  expect(cassette.stdout).toMatch(/touchstone cassette show <file>\s+list what a cassette holds/);
});
