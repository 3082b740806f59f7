// The Ctrl-C scenario of a regression gate: `run --record DIR` stopped in the middle of a case
// (SIGINT to its process group, as a terminal sends it, or kill -9), then replayed, then
// recorded again and replayed. A recording that lacks a request is never a green run: the
// interrupted case keeps no partial cassette, its replay is ERROR (exit 4), and recording
// again records it.
//
// The moment is exact: a gate between touchstone and the target holds the case's Nth request
// to the endpoint, and the signal goes while it is held.
import { expect, test } from '@playwright/test';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Results } from '../core/results.js';
import { readWorldTokens } from '../suite/world-tokens.js';
import { runCli, startServe, tokensFile, TOUCHSTONE_BIN } from '../../test-support/cli-process.js';

test.describe.configure({ mode: 'parallel' });

const BEFORE = 'assignees/list-returns-users';
const CASE = 'assignees/add-at-most-ten';
// Between resets, the case adds assignees to this issue and removes them: 6 requests to it.
const ENDPOINT = '/repos/octo-org/crowd/issues/1/assignees';

interface Gate {
  url: string;
  /** Resolves once the `nth` request to ENDPOINT arrived; it is held, never answered. */
  held: Promise<void>;
  close(): Promise<void>;
}

/** A forwarder to `target` that holds the `nth` request to ENDPOINT (0: none). */
async function startGate(target: string, nth: number): Promise<Gate> {
  let seen = 0;
  let arrived!: () => void;
  const held = new Promise<void>((resolve) => (arrived = resolve));
  const server = http.createServer((req, res) => {
    if (req.url === ENDPOINT && ++seen === nth) {
      arrived();
      return;
    }
    const upstream = http.request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.rawHeaders);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    held,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** `touchstone run --record` in a process group of its own, stopped by `signal` to the group once `when` resolves. */
async function recordStopped(args: string[], when: Promise<void>, signal: NodeJS.Signals, env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [TOUCHSTONE_BIN, 'run', ...args], {
    detached: true,
    env: { ...process.env, FORCE_COLOR: undefined, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const ended = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const first = await Promise.race([when.then(() => 'held' as const), ended.then(() => 'ended' as const)]);
  if (first === 'ended') throw new Error(`the run ended before the moment to stop it:\n${output}`);
  process.kill(-child.pid!, signal);
  return { code: await ended, output };
}

const cassetteOf = (dir: string, id: string) => path.join(dir, `${id}.cassette.json`);
const leftovers = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => /\.(journal|lock)$|\.tmp-|\.lock\./.test(f));

for (const [nth, signal] of [
  [1, 'SIGINT'],
  [4, 'SIGINT'],
  [6, 'SIGINT'],
  [4, 'SIGKILL'],
] as const) {
  test(`${signal} at request ${nth} of a case while recording, then replay, record again, replay: never conforming with a hole`, async () => {
    test.setTimeout(240_000);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-interrupted-'));
    const cassettes = path.join(dir, 'cassettes');
    const server = await startServe();
    const gate = await startGate(server.url, nth);
    const env = { ADMIN_TOKEN: readWorldTokens()['repo-admin'] };
    const only = ['--only', BEFORE, '--only', CASE];
    const target = (url: string) => ['--target', url, '--tokens', tokensFile(dir)];
    const results = (out: string): Results => JSON.parse(readFileSync(path.join(dir, out, 'results.json'), 'utf8'));
    try {
      const stopped = await recordStopped(
        ['--record', cassettes, ...target(gate.url), ...only, '--out', path.join(dir, 'stopped')],
        gate.held,
        signal,
        env,
      );
      expect(stopped.code, stopped.output).not.toBe(0);
      // The case before reached its outcome: kept. The interrupted one left no partial cassette.
      expect(existsSync(cassetteOf(cassettes, CASE)), stopped.output).toBe(false);
      if (signal === 'SIGINT') {
        expect(existsSync(cassetteOf(cassettes, BEFORE)), stopped.output).toBe(true);
        expect(leftovers(cassettes)).toEqual([]);
        expect(stopped.output).toContain(`1 recording dropped, its case reached no outcome (interrupted or ERROR)`);
        expect(stopped.output).toContain(`${CASE}\n             the run was stopped before this case reached an outcome`);
      }

      // Replayed as it is: the interrupted case is ERROR, the run incomplete.
      const replayed = await runCli(['run', '--replay', cassettes, '--out', path.join(dir, 'replay-1')]);
      expect(replayed.code, replayed.stdout + replayed.stderr).toBe(4);
      expect(replayed.stderr).toContain(`${cassettes} lacks the recording of`);
      const holed = results('replay-1');
      expect(holed.verdict).toBe('incomplete');
      const interrupted = holed.cases.find((c) => c.id === CASE)!;
      expect(interrupted.outcome).toBe('ERROR');
      expect(interrupted.message).toMatch(/^the recording lacks this request: /);
      // A crash leaves the journal; its next reader drops it (run --record keeps only whole cases).
      expect(leftovers(cassettes)).toEqual([]);
      expect(existsSync(cassetteOf(cassettes, CASE))).toBe(false);

      // Recording again records the interrupted case; the replay is then whole.
      await gate.close();
      const again = await runCli(['run', '--record', cassettes, ...target(server.url), ...only, '--out', path.join(dir, 'again')], env);
      expect(again.code, again.stdout + again.stderr).toBe(0);
      expect(existsSync(cassetteOf(cassettes, CASE))).toBe(true);
      const whole = await runCli(['run', '--replay', cassettes, '--out', path.join(dir, 'replay-2')]);
      expect(whole.code, whole.stdout + whole.stderr).toBe(0);
      expect(results('replay-2').cases.map((c) => `${c.id} ${c.outcome}`)).toEqual([`${BEFORE} PASS`, `${CASE} PASS`]);
    } finally {
      await gate.close();
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
