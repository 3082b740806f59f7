// A foreign target: Stoplight Prism (a dev dependency) mocking the reference's own OpenAPI
// document (`touchstone openapi`). A stateless mock answers every operation with an example of
// its documented response, so it cannot keep state, check access or page through data: the
// whole catalogue must judge it NON-CONFORMING, every FAIL citing a requirement, and no case
// may be ERROR (a mock is a poor implementation, not a broken harness).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { Results } from '../core/results.js';
import { validateResults } from '../report/write-reports.js';
import { readWorldTokens } from '../suite/world-tokens.js';
import { runCli, tokensFile } from '../../test-support/cli-process.js';
import { freePort } from '../../test-support/free-port.js';

const PRISM = path.join(path.dirname(createRequire(import.meta.url).resolve('@stoplight/prism-cli/package.json')), 'dist', 'index.js');

/** `prism mock doc` on 127.0.0.1, once it says it listens. */
async function startPrism(doc: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [PRISM, 'mock', '-h', '127.0.0.1', '-p', String(port), doc], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const seen = (chunk: Buffer) => {
      output += chunk;
      if (output.includes('Prism is listening')) resolve();
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.on('exit', (code) => reject(new Error(`prism exited ${code} before listening:\n${output}`)));
  });
  // Its log of every request is of no use here; keep the pipes drained.
  child.stdout!.resume();
  child.stderr!.resume();
  return { url: `http://127.0.0.1:${port}`, child };
}

test('prism mocking the reference document, judged on the whole catalogue: NON-CONFORMING, every FAIL citing a requirement, no ERROR', async () => {
  // Generous: the run took about 86 s here beside other tests (README, touchstone run).
  test.setTimeout(600_000);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-prism-test-'));
  const openapi = await runCli(['openapi']);
  expect(openapi.code, openapi.stderr).toBe(0);
  const doc = path.join(dir, 'doc.json');
  writeFileSync(doc, openapi.stdout);
  const prism = await startPrism(doc);
  try {
    const out = path.join(dir, 'out');
    const started = Date.now();
    const result = await runCli(['run', '--target', prism.url, '--tokens', tokensFile(dir), '--out', out], {
      ADMIN_TOKEN: readWorldTokens()['repo-admin'],
    });
    expect(Date.now() - started).toBeLessThan(540_000);
    expect(result.code, result.stdout.slice(-3000) + result.stderr).toBe(1);
    expect(result.stdout).toContain('touchstone: NON-CONFORMING');
    const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as Results;
    validateResults(results);
    expect(results.verdict).toBe('non-conforming');
    expect(results.scope.suites).toEqual([]);
    const errors = results.cases.filter((c) => c.outcome === 'ERROR').map((c) => `${c.id}: ${c.message}`);
    expect(errors).toEqual([]);
    const fails = results.cases.filter((c) => c.outcome === 'FAIL');
    expect(fails.length).toBeGreaterThan(0);
    const known = new Set(results.requirements.map((r) => r.id));
    for (const c of fails) {
      expect(c.failure?.requirement, c.id).toBeTruthy();
      expect(known.has(c.failure!.requirement), `${c.id} cites ${c.failure?.requirement}`).toBe(true);
    }
  } finally {
    prism.child.kill('SIGTERM');
  }
});
