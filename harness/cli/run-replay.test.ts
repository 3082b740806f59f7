// `touchstone run --replay` against the committed recordings of the reference: the whole
// suite passes offline, and the target it stands for never sees a connection.
import { expect, test } from '@playwright/test';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Results } from '../core/results.js';
import { PROJECT_ROOT, suitePaths } from '../core/suite-paths.js';
import { loadSuites } from '../suite/suite-loader.js';
import { runCli } from './cli-process.js';

const REFERENCE_CASSETTES = path.join(PROJECT_ROOT, 'cassettes/reference');

test.describe.configure({ mode: 'parallel' });

test('run --replay cassettes/reference passes offline and the sentinel target sees zero connections', async () => {
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
    expect(result.stdout).toMatch(/proxy \(replay\): \d+ cassette\(s\), \d+ answer\(s\) replayed, 0 recorded\n/);
    expect(result.stdout).not.toContain('never asked for');
    expect(connections).toBe(0);
  } finally {
    sentinel.close();
    rmSync(out, { recursive: true, force: true });
  }
});

test('run --record reproduces the committed recordings byte for byte', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-record-test-'));
  try {
    cpSync(REFERENCE_CASSETTES, dir, { recursive: true });
    const result = await runCli(['run', '--record', dir, '--out', path.join(dir, '..', `${path.basename(dir)}-report`)]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const name = 'assignees/list-pages-of-a-large-repository.cassette.json';
    expect(readFileSync(path.join(dir, name), 'utf8')).toBe(readFileSync(path.join(REFERENCE_CASSETTES, name), 'utf8'));
    expect(result.stdout).not.toContain('removed');
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(`${dir}-report`, { recursive: true, force: true });
  }
});

test('a case whose recording is missing is an ERROR naming the miss, and the summary lists it', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-replay-miss-'));
  try {
    cpSync(REFERENCE_CASSETTES, path.join(dir, 'cassettes'), { recursive: true });
    rmSync(path.join(dir, 'cassettes/assignees/list-returns-users.cassette.json'));
    const result = await runCli([
      'run',
      '--replay',
      path.join(dir, 'cassettes'),
      '--suite',
      'assignees',
      '--out',
      path.join(dir, 'out'),
      '--allow-incomplete',
    ]);
    // An ERROR makes the run incomplete (exit 4), and --allow-incomplete does not forgive it.
    expect(result.code).toBe(4);
    const results: Results = JSON.parse(readFileSync(path.join(dir, 'out/results.json'), 'utf8'));
    expect(results.verdict).toBe('incomplete');
    expect(results.gaps.errors).toEqual(['assignees/list-returns-users']);
    const missing = results.cases.find((c) => c.id === 'assignees/list-returns-users')!;
    expect(missing.outcome).toBe('ERROR');
    expect(missing.message).toContain('599');
    expect(missing.message).toContain('the cassette does not exist');
    expect(results.cases.filter((c) => c.outcome === 'PASS')).toHaveLength(results.cases.length - 1);
    expect(result.stdout).toContain('assignees/list-returns-users: POST /_conformance/reset: touchstone: the cassette does not exist');
    // Said before any case runs, too.
    expect(result.stderr).toContain(
      `touchstone: 1 of ${results.cases.length} selected cases have no recording in ${path.join(dir, 'cassettes')}, and will be ERROR: assignees/list-returns-users\n`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('run --replay with no recording of the selected cases is exit 2 before any case runs, naming the folder', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-replay-empty-'));
  try {
    const empty = await runCli(['run', '--replay', dir, '--out', path.join(dir, 'out')]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain(`touchstone: --replay ${dir} holds no recording of the `);
    expect(empty.stdout).not.toContain('running');
    expect(existsSync(path.join(dir, 'out'))).toBe(false);
    // Recordings of other cases do not count: the selected ones have none.
    cpSync(path.join(REFERENCE_CASSETTES, 'assignees'), path.join(dir, 'assignees'), { recursive: true });
    const other = await runCli(['run', '--replay', dir, '--suite', 'variables', '--out', path.join(dir, 'out')]);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain(`(such as ${path.join(dir, 'variables')}/`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
