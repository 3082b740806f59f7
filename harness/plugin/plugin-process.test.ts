import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { runPluginProcess, splitCommand, STDERR_KEEP } from './plugin-process.js';

const sh = (script: string) => ['/bin/sh', '-c', script];
const limits = { timeoutMs: 5_000, maxOutputBytes: 1024 * 1024 };

test('the request reaches stdin and stdout comes back byte for byte, with the exit status', async () => {
  const request = Buffer.from([0, 1, 2, 0xff, 0xfe, 10, 13]);
  const run = await runPluginProcess(['/bin/cat'], request, limits);
  expect(run).toMatchObject({ exitCode: 0, signal: null, timedOut: false, truncated: false });
  expect(run.stdout.equals(request)).toBe(true);

  const failing = await runPluginProcess(sh('cat >/dev/null; echo "bad request" >&2; exit 3'), request, limits);
  expect(failing).toMatchObject({ exitCode: 3, signal: null });
  expect(failing.stderr.toString()).toBe('bad request\n');
});

test('a plugin that never reads its request still answers (EPIPE is not an error)', async () => {
  const run = await runPluginProcess(sh('printf answer'), Buffer.alloc(4 * 1024 * 1024, 1), limits);
  expect(run).toMatchObject({ exitCode: 0, timedOut: false });
  expect(run.stdout.toString()).toBe('answer');
});

test('a crash is reported by its signal', async () => {
  const run = await runPluginProcess(sh('kill -SEGV $$'), Buffer.alloc(0), limits);
  expect(run).toMatchObject({ exitCode: null, signal: 'SIGSEGV', timedOut: false });
});

test('a hang is killed at the timeout, together with what it started', async () => {
  // The shell starts a sleep of its own: killing only the shell would leave the sleep behind.
  const run = await runPluginProcess(sh('sleep 30 & echo $! >&2; wait'), Buffer.alloc(0), { ...limits, timeoutMs: 300 });
  expect(run).toMatchObject({ timedOut: true, signal: 'SIGKILL' });
  const sleeper = Number(run.stderr.toString().trim());
  await expect.poll(() => isAlive(sleeper), { timeout: 2_000 }).toBe(false);
});

test('output over the cap is cut there and the plugin is stopped; stderr keeps its head', async () => {
  const run = await runPluginProcess(sh('head -c 2000000 /dev/zero; head -c 200000 /dev/zero >&2; sleep 30'), Buffer.alloc(0), {
    ...limits,
    maxOutputBytes: 1000,
  });
  expect(run).toMatchObject({ truncated: true, timedOut: false, signal: 'SIGKILL' });
  expect(run.stdout.length).toBe(1000);
  expect(run.stderr.length).toBeLessThanOrEqual(STDERR_KEEP);
});

test('a program that does not exist is a spawn error, not an exit status', async () => {
  const run = await runPluginProcess(['/nonexistent/protoc-gen-x'], Buffer.alloc(0), limits);
  expect(run.spawnError).toBe('/nonexistent/protoc-gen-x: ENOENT');
  expect(run.exitCode).toBeNull();
});

test('commands split like a shell does for words and quotes', () => {
  expect(splitCommand('npx protoc-gen-es')).toEqual(['npx', 'protoc-gen-es']);
  expect(splitCommand(`node "my plugin.js" 'a b' c\\ d "x\\"y"`)).toEqual(['node', 'my plugin.js', 'a b', 'c d', 'x"y']);
  expect(splitCommand(`prog ''`)).toEqual(['prog', '']);
  expect(() => splitCommand('prog "open')).toThrow(/unterminated " quote/);
  expect(() => splitCommand('   ')).toThrow(/empty/);
});

/** Running, as opposed to gone or a zombie (killed, but its new parent has not reaped it yet: containers' PID 1 often reaps late). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false; // gone between the two looks
  }
}
