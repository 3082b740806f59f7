// Interop tests run Debian's protoc (3.21, package protobuf-compiler): it is the compiler
// whose requests and parsing rules the codec must match. Without the package a developer
// gets a skip with the reason; CI sets TOUCHSTONE_REQUIRE_PROTOC=1 so a missing protoc
// fails instead of silently passing (as TOUCHSTONE_REQUIRE_BROWSER does for Chromium).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { HarnessError } from '../errors.js';

export const DEBIAN_PROTOC = '/usr/bin/protoc';

const MISSING = `${DEBIAN_PROTOC} not found: install Debian's protobuf-compiler package to run the protoc interop tests (CI sets TOUCHSTONE_REQUIRE_PROTOC=1 to fail here instead)`;

/** Call at the top of a protoc test file: skips it, with the reason, when protoc is absent and not required. */
export function skipWithoutDebianProtoc(test: { skip(condition: boolean, description: string): void }): void {
  const skip = !existsSync(DEBIAN_PROTOC) && process.env.TOUCHSTONE_REQUIRE_PROTOC !== '1';
  test.skip(skip, MISSING);
  if (skip) console.warn(`skipping protoc tests: ${MISSING}`);
}

export interface ProtocRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs Debian's protoc synchronously; a missing binary is an error here, never a skip. */
export function runDebianProtoc(args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): ProtocRun {
  if (!existsSync(DEBIAN_PROTOC)) throw new HarnessError('CAPABILITY', `TOUCHSTONE_REQUIRE_PROTOC=1 but ${MISSING}`);
  const run = spawnSync(DEBIAN_PROTOC, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, encoding: 'utf8', timeout: 30_000 });
  if (run.error) throw new HarnessError('CAPABILITY', `cannot run ${DEBIAN_PROTOC}: ${run.error.message}`);
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}
