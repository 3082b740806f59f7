// docs/validate-your-implementation.md, run as written: its `sh` blocks, in order, in a fresh
// folder, with `npx touchstone` as this clone's command and the example's port a free one. So
// the tutorial cannot drift from the commands, and the example target (examples/target-node/)
// is judged CONFORMING for its areas in every CI run.
import { mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { PROJECT_ROOT } from '../core/suite-paths.js';
import { TOUCHSTONE_BIN } from '../../test-support/cli-process.js';
import { freePort } from '../../test-support/free-port.js';
import { runScript } from '../../test-support/shell-script.js';

const TUTORIAL = path.join(PROJECT_ROOT, 'docs', 'validate-your-implementation.md');

/** The tutorial's shell commands, block by block. */
function tutorialCommands(): string[] {
  const text = readFileSync(TUTORIAL, 'utf8');
  return [...text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map(([, block]) => block.trim());
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
  // Bounded, and over as soon as the server is gone: a server that could not start must not
  // leave the script waiting for it until the test's timeout.
  const answers = `node -e "fetch('http://127.0.0.1:${port}/_conformance/capabilities').then(() => process.exit(0), () => process.exit(1))"`;
  const ready = `for try in $(seq 300); do ${answers} && break; kill -0 $! || { echo 'the server stopped before it answered' >&2; exit 1; }; [ "$try" -lt 300 ] || { echo 'the server did not answer in a minute' >&2; exit 1; }; sleep 0.2; done`;
  const lines = commands
    // npm ci is the clone's own install, done already.
    .filter((command) => command !== 'npm ci')
    .map((command) => command.replaceAll('npx touchstone', `node ${TOUCHSTONE_BIN}`).replaceAll('8080', String(port)))
    // A server started in the background is waited for, as a reader waits for its first line.
    .flatMap((command) => (command.endsWith('&') ? [command, ready] : [command]));
  const script = ['set -ex', ...lines].join('\n');
  // What the script left running (the server, when a step failed before `kill %1`) ends with it.
  const result = await runScript(['-c', script], { cwd: dir, env: { ...process.env, NO_COLOR: '1' }, bound: 540_000 });
  expect(result.code, result.output).toBe(0);
  expect(result.output).toContain('nothing blocks a run');
  expect(result.output).toMatch(/CONFORMING/);
  const results = JSON.parse(readFileSync(path.join(dir, 'reports', 'example', 'results.json'), 'utf8'));
  expect(results.verdict).toBe('conforming');
  expect(results.scope.suites).toEqual(['social-accounts', 'variables']);
  expect(results.summary.SKIP + results.summary.ERROR + results.summary.FAIL).toBe(0);
});
