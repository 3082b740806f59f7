// Test helper for the interop tests, which drive the plugin from real compilers: Debian's protoc
// and buf (an npm devDependency whose binary comes from a platform package). Where one is missing
// a developer gets a skip with the reason; CI sets TOUCHSTONE_REQUIRE_PROTOC=1 so a missing
// compiler fails the tests instead of letting them pass silently. (The same pattern as the
// browser tests' TOUCHSTONE_REQUIRE_BROWSER; reference-impl cannot import that harness helper.)
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { test } from '@playwright/test';

export const BUF = fileURLToPath(new URL('../../node_modules/.bin/buf', import.meta.url));
export const PROTOC = 'protoc';

function protocMissing(): boolean {
  const probe = spawnSync(PROTOC, ['--version'], { encoding: 'utf8' });
  return probe.error !== undefined || probe.status !== 0;
}

type TestApi = typeof test;

// Called at the top of a test file: Playwright then skips every test of the file, and the
// warning (printed once per worker, before the skip) says why in any reporter's output. When
// the compiler is required, each test fails with the reason instead.
function skipUnless(api: TestApi, missing: boolean, reason: string): void {
  if (missing && process.env.TOUCHSTONE_REQUIRE_PROTOC === '1') {
    api.beforeEach(() => {
      throw new Error(`TOUCHSTONE_REQUIRE_PROTOC=1 but ${reason}`);
    });
    return;
  }
  if (missing) console.warn(`skipping interop tests: ${reason}`);
  api.skip(missing, reason);
}

/** Skips the file's tests, with the reason, when protoc is not on PATH and not required. */
export function skipWithoutProtoc(api: TestApi): void {
  skipUnless(api, protocMissing(), `${PROTOC} not found on PATH: install Debian's protobuf-compiler to run the protoc interop tests (CI sets TOUCHSTONE_REQUIRE_PROTOC=1 to fail here instead)`);
}

/** Same for buf, which `npm ci` normally installs. */
export function skipWithoutBuf(api: TestApi): void {
  skipUnless(api, !existsSync(BUF), `${BUF} not found: run npm ci to install @bufbuild/buf (CI sets TOUCHSTONE_REQUIRE_PROTOC=1 to fail here instead)`);
}
