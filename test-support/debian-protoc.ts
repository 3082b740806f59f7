// Test support shared by harness/ and reference-impl/ tests (it lives outside both, since
// reference-impl imports nothing from harness): the real compilers the interop and
// differential tests drive, Debian's protoc 3.21 (package protobuf-compiler) and npm's buf.
// Without one a developer gets a visible skip with the reason; CI sets
// TOUCHSTONE_REQUIRE_PROTOC=1 so a missing compiler fails instead of silently passing
// (as TOUCHSTONE_REQUIRE_BROWSER does for Chromium).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { skipUnlessInstalled, type Skippable } from './required-tool.js';

export const DEBIAN_PROTOC = '/usr/bin/protoc';
// The platform package itself, not the @bufbuild/buf wrapper: the wrapper lists a binary
// package per platform as optional dependencies, and a registry mirror that carries only
// Linux's leaves them out of package-lock.json, which then fails `npm ci`. buf is therefore
// an optional dependency of the one platform CI runs on; elsewhere its tests skip visibly.
export const BUF = fileURLToPath(new URL('../node_modules/@bufbuild/buf-linux-x64/bin/buf', import.meta.url));

const REQUIRE = 'TOUCHSTONE_REQUIRE_PROTOC';
const skipUnlessPresent = (test: Skippable, present: boolean, missing: string) => skipUnlessInstalled(test, present, missing, REQUIRE);

/** Call at the top of a test file (or first in a test) that needs Debian's protoc. */
export function skipWithoutDebianProtoc(test: Skippable): void {
  skipUnlessPresent(
    test,
    existsSync(DEBIAN_PROTOC),
    `${DEBIAN_PROTOC} not found: install Debian's protobuf-compiler to run the tests against protoc 3.21`,
  );
}

/** The same for buf, which `npm ci` installs on linux-x64 (@bufbuild/buf-linux-x64). */
export function skipWithoutBuf(test: Skippable): void {
  skipUnlessPresent(test, existsSync(BUF), `${BUF} not found: npm ci installs it on linux-x64 only`);
}

export interface ProtocRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs Debian's protoc synchronously (call skipWithoutDebianProtoc first). */
export function runDebianProtoc(args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): ProtocRun {
  const run = spawnSync(DEBIAN_PROTOC, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (run.error) throw new Error(`cannot run ${DEBIAN_PROTOC}: ${run.error.message}`);
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}
