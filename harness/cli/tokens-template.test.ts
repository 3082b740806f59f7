// `touchstone tokens template`: every role of the world, ready to fill in and read back by
// run --tokens; and a mistyped role in a tokens file is an error that names the right one.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { readTokensFile } from '../http/tokens-file.js';
import { readWorldRoles, readWorldTokens } from '../suite/world-tokens.js';
import { runCli } from '../../test-support/cli-process.js';

const roles = Object.keys(readWorldTokens());
const scratch = () => mkdtempSync(path.join(os.tmpdir(), 'touchstone-tokens-template-'));

test('the template names every role with its token in a comment, and reads back once filled in', async () => {
  const result = await runCli(['tokens', 'template']);
  expect(result.code, result.stderr).toBe(0);
  const lines = result.stdout.split('\n');
  const described = readWorldRoles();
  for (const role of roles) {
    const at = lines.indexOf(`${role}:`);
    expect(at, role).toBeGreaterThan(0);
    expect(lines[at - 1]).toBe(`# ${described.get(role)}`);
  }
  expect(result.stdout).toContain(
    '# fine-grained token of hubot, permissions organization_administration: write\nfine-grained-org-admin:\n',
  );

  const file = path.join(scratch(), 'tokens.yaml');
  // Unfilled, it is refused, naming the role: no role silently goes without its token.
  writeFileSync(file, result.stdout);
  expect(() => readTokensFile(file, roles)).toThrow(`the value of ${roles[0]} must be a non-empty string`);
  writeFileSync(
    file,
    result.stdout.replace(/^([a-z][a-z0-9-]*):$/gm, (_, role: string) =>
      role === 'repo-admin' ? `${role}: \${ADMIN}` : `${role}: tok-${role}`,
    ),
  );
  const expected = Object.fromEntries(roles.map((role) => [role, role === 'repo-admin' ? 'from-env' : `tok-${role}`]));
  expect(readTokensFile(file, roles, { ADMIN: 'from-env' })).toEqual(expected);
});

test('--out writes a new file; an existing file or a folder that is not there is a clear error', async () => {
  const dir = scratch();
  const out = path.join(dir, 'tokens.yaml');
  const written = await runCli(['tokens', 'template', '--out', out]);
  expect(written.code, written.stderr).toBe(0);
  expect(written.stdout).toContain(`wrote ${out}`);
  const printed = await runCli(['tokens', 'template']);
  expect(readFileSync(out, 'utf8')).toBe(printed.stdout);

  writeFileSync(out, 'repo-admin: my-secret\n');
  const existing = await runCli(['tokens', 'template', '--out', out]);
  expect(existing.code).toBe(2);
  expect(existing.stderr).toContain(`--out ${out} exists: name a new file`);
  expect(readFileSync(out, 'utf8')).toBe('repo-admin: my-secret\n');

  const missing = await runCli(['tokens', 'template', '--out', path.join(dir, 'no-such-folder', 'tokens.yaml')]);
  expect(missing.code).toBe(2);
  expect(missing.stderr).toMatch(/cannot write --out .*no-such-folder\/tokens\.yaml: ENOENT/);
  expect(missing.stderr).not.toContain('bug in touchstone');
});

test('run --tokens with a mistyped role stops before the run, suggesting the role meant', async () => {
  const file = path.join(scratch(), 'tokens.yaml');
  writeFileSync(file, 'repo-admn: tok-1\n');
  const result = await runCli(['run', '--target', 'http://127.0.0.1:9', '--tokens', file]);
  expect(result.code).toBe(2);
  expect(result.stderr).toContain(`unknown role repo-admn in ${file}: did you mean repo-admin?`);
});
