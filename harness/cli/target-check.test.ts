// `touchstone target check` and the preflight of `touchstone run`: a target that is right
// passes; a web server that is not the service is told at once (exit 3), by both; a target
// with a refused token and an undeclared reset is told what to fix.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { readWorldTokens } from '../suite/world-tokens.js';
import { loadSuites } from '../suite/suite-loader.js';
import { suitePaths } from '../core/suite-paths.js';
import { runCli, startServe, tokensFile } from '../../test-support/cli-process.js';

test.describe.configure({ mode: 'serial' });

/** A server on 127.0.0.1 answering with `handle`; its URL and a close. */
async function serve(handle: http.RequestListener) {
  const server = http.createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** What Python's `http.server` answers for a path it has no file for. */
const webServer = () =>
  serve((_request, response) => {
    response.writeHead(404, { 'Content-Type': 'text/html;charset=utf-8' });
    response.end('<!DOCTYPE HTML><html><body><h1>Error response</h1><p>Error code: 404</p></body></html>');
  });

test('against `touchstone serve` with the world tokens, every line is ok and it exits 0', async () => {
  const serve = await startServe();
  try {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-check-'));
    const result = await runCli(['target', 'check', '--target', serve.url, '--tokens', tokensFile(dir)], {
      ADMIN_TOKEN: readWorldTokens()['repo-admin'],
    });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('answers like the service');
    expect(result.stdout).toContain('control.reset works');
    expect(result.stdout).toContain('world: Git object ids');
    expect(result.stdout).toContain(`contents: all ${loadSuites(suitePaths.service, ['contents'])[0].cases.length} cases can run`);
    expect(result.stdout).not.toMatch(/\[(FAIL|warn|skip)\]/);
    expect(result.stdout).toContain('nothing blocks a run');
  } finally {
    await serve.stop();
  }
});

test('a web server that is not the service: check and run both stop at once with exit 3, naming why', async () => {
  const server = await webServer();
  try {
    const check = await runCli(['target', 'check', '--target', server.url]);
    expect(check.code).toBe(3);
    expect(check.stdout).toContain('does not answer like the service: GET /users/octocat/social_accounts answered 404 text/html');
    expect(check.stdout).not.toContain('capabilities:');

    const run = await runCli(['run', '--target', server.url, '--suite', 'social-accounts']);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('does not answer like the service');
    expect(run.stdout).not.toContain('running');

    // --no-preflight judges it anyway: its cases fail, as a verdict.
    const anyway = await runCli([
      'run',
      '--target',
      server.url,
      '--no-preflight',
      '--only',
      'social-accounts/list-user',
      '--out',
      path.join(mkdtempSync(path.join(os.tmpdir(), 'touchstone-check-')), 'r'),
    ]);
    expect(anyway.stdout).toContain('running 1 case against');
    expect(anyway.code).not.toBe(3);
  } finally {
    await server.close();
  }
});

test('a refused token and a reset served but not declared are named, each with its fix', async () => {
  const reference = await startServe();
  // The reference with control.reset left out of its capabilities, and everything else passed on.
  const front = await serve((request, response) => {
    const upstream = http.request(`${reference.url}${request.url}`, { method: request.method, headers: request.headers }, (answer) => {
      if (request.url === '/_conformance/capabilities') {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          response.writeHead(200, { 'Content-Type': 'application/json' });
          response.end(JSON.stringify({ capabilities: body.capabilities.filter((c: string) => c !== 'control.reset') }));
        });
        return;
      }
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    request.pipe(upstream);
  });
  try {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-check-'));
    const file = path.join(dir, 'tokens.yaml');
    writeFileSync(file, `repo-admin: not-a-token-of-the-target\nuser-owner: ${readWorldTokens()['user-owner']}\n`);
    const result = await runCli([
      'target',
      'check',
      '--target',
      front.url,
      '--tokens',
      file,
      '--suite',
      'social-accounts',
      '--suite',
      'assignees',
    ]);
    expect(result.code, result.stdout + result.stderr).toBe(1);
    expect(result.stdout).toContain('[warn] the target serves POST /_conformance/reset (204) but does not list control.reset');
    expect(result.stdout).toContain('[FAIL] tokens refused (401 on GET /user/social_accounts): repo-admin');
    expect(result.stdout).toMatch(/fix: issue these tokens in the target/);
    expect(result.stdout).toContain(
      'world: users and their ids (the assignees of octo-org/widgets): not checked (the repo-admin token is refused)',
    );
    expect(result.stdout).toMatch(
      new RegExp(
        `\\[warn\\] social-accounts: \\d+ of ${loadSuites(suitePaths.service, ['social-accounts'])[0].cases.length} cases will SKIP`,
      ),
    );

    // A run warns before its cases, and its gaps say they shared one state.
    const out = path.join(dir, 'run');
    const run = await runCli(['run', '--target', front.url, '--tokens', tokensFile(dir), '--suite', 'social-accounts', '--out', out], {
      ADMIN_TOKEN: readWorldTokens()['repo-admin'],
    });
    expect(run.stderr).toContain('warning: the target serves POST /_conformance/reset (204) but does not list control.reset');
    const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8'));
    expect(results.gaps.shared_state).toBe(true);
    expect(run.stdout).toContain('cases ran on shared state');
    expect(readFileSync(path.join(out, 'report.html'), 'utf8')).toContain('data-testid="gap-shared-state"');
  } finally {
    await front.close();
    await reference.stop();
  }
});
