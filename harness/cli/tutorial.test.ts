// docs/validate-your-implementation.md, run as written: its `sh` blocks, in order, in a fresh
// folder, with `npx touchstone` as this clone's command and the example's port a free one. So
// the tutorial cannot drift from the commands, and the example target (examples/target-node/)
// is judged CONFORMING for its areas in every CI run.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { PROJECT_ROOT } from '../core/suite-paths.js';
import { TOUCHSTONE_BIN } from '../../test-support/cli-process.js';

const TUTORIAL = path.join(PROJECT_ROOT, 'docs', 'validate-your-implementation.md');

/** The tutorial's shell commands, block by block. */
function tutorialCommands(): string[] {
  const text = readFileSync(TUTORIAL, 'utf8');
  return [...text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map(([, block]) => block.trim());
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test('the tutorial, run as written, takes the example target to CONFORMING', async () => {
  test.setTimeout(600_000);
  const commands = tutorialCommands();
  expect(commands.length).toBeGreaterThanOrEqual(5);
  const port = await freePort();
  // A reader's folder is the clone: here a scratch folder with the clone's examples/ linked in,
  // so the world export, the reports and nothing else land in it.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-tutorial-'));
  symlinkSync(path.join(PROJECT_ROOT, 'examples'), path.join(dir, 'examples'));
  const ready = `until node -e "fetch('http://127.0.0.1:${port}/_conformance/capabilities').then(() => process.exit(0), () => process.exit(1))"; do sleep 0.2; done`;
  const lines = commands
    // npm ci is the clone's own install, done already.
    .filter((command) => command !== 'npm ci')
    .map((command) => command.replaceAll('npx touchstone', `node ${TOUCHSTONE_BIN}`).replaceAll('8080', String(port)))
    // A server started in the background is waited for, as a reader waits for its first line.
    .flatMap((command) => (command.endsWith('&') ? [command, ready] : [command]));
  const script = ['set -ex', ...lines].join('\n');
  const result = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd: dir, env: { ...process.env, NO_COLOR: '1' } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
  expect(result.code, result.output).toBe(0);
  expect(result.output).toContain('nothing blocks a run');
  expect(result.output).toMatch(/CONFORMING/);
  const results = JSON.parse(readFileSync(path.join(dir, 'reports', 'example', 'results.json'), 'utf8'));
  expect(results.verdict).toBe('conforming');
  expect(results.scope.suites).toEqual(['social-accounts', 'variables']);
  expect(results.summary.SKIP + results.summary.ERROR + results.summary.FAIL).toBe(0);
});
