// The requests touchstone sends plugins are protoc's: for the same files and parameter, the bytes
// touchstone builds (plugin-input.ts, from the committed fixture descriptors, source_code_info
// included) equal, byte for byte, what Debian's protoc 3.21 writes on the stdin of a capture
// plugin, so a plugin is judged on the input protoc would give it. The bends cases ask for
// (unknown fields, field order, truncation) are not protoc's on purpose, and not compared.
import { expect, test } from '@playwright/test';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suitePaths } from '../core/suite-paths.js';
import { runDebianProtoc, skipWithoutDebianProtoc } from '../../test-support/debian-protoc.js';
import { loadFixtureDescriptors } from './fixture-descriptors.js';
import { buildRequest } from './plugin-input.js';
import { requestTextFormat } from '../protocol/text-format.js';

skipWithoutDebianProtoc(test);

let dir: string;
test.beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-protoc-request-'));
  // Saves its request, then answers that it supports proto3 optional (protoc checks that after the request is sent).
  writeFileSync(path.join(dir, 'protoc-gen-capture'), `#!/bin/sh\ncat > "$CAPTURE"\nprintf '\\020\\001'\n`);
  chmodSync(path.join(dir, 'protoc-gen-capture'), 0o755);
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

let captures = 0;
/** What protoc 3.21 sends protoc-gen-capture for `files`, given `--capture_out=PARAMETER:DIR`. */
function protocRequest(files: string[], parameter?: string): Buffer {
  const capture = path.join(dir, `request-${++captures}.bin`);
  const out = path.join(dir, 'out');
  mkdirSync(out, { recursive: true });
  const run = runDebianProtoc(
    [
      `-I${suitePaths.pluginFixtures}`,
      `--plugin=protoc-gen-capture=${path.join(dir, 'protoc-gen-capture')}`,
      `--capture_out=${parameter ? `${parameter}:` : ''}${out}`,
      ...files,
    ],
    { cwd: dir, env: { CAPTURE: capture } },
  );
  expect(run.status, run.stderr).toBe(0);
  return readFileSync(capture);
}

const describe = loadFixtureDescriptors();

for (const [files, parameter] of [
  [['shop/catalog.proto']],
  [['legacy.proto']],
  [['optional.proto']],
  [['shop/catalog.proto', 'shop/money.proto', 'legacy.proto']],
  [['clash/stock.proto', 'clash/stock']],
  [['shop/money.proto'], 'paths=source_relative,Mshop/money.proto=example.com/shop;shop'],
] as [string[], string?][]) {
  test(`the request for ${files.join(' ')}${parameter ? ` with parameter ${parameter}` : ''} is protoc 3.21's, byte for byte`, () => {
    const ours = Buffer.from(buildRequest({ files }, describe, parameter));
    const theirs = protocRequest(files, parameter);
    // The text forms first: a difference then reads as the field that differs.
    expect(requestTextFormat(ours)).toBe(requestTextFormat(theirs));
    expect(ours.equals(theirs)).toBe(true);
  });
}
