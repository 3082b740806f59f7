// `touchstone world export`: the world as data an implementer loads. What they rely on: series
// expanded as the reference serves them, generated files they can check by size and SHA-256,
// artifact zips with the bytes the reference serves, Git repositories `git clone` reads with
// the object ids the listing names, the same bytes every export, and a clear refusal of an
// --out it must not write into.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { readWorldTokens } from '../suite/world-tokens.js';
import { runCli } from '../../test-support/cli-process.js';

type Json = Record<string, any>;

const root = mkdtempSync(path.join(os.tmpdir(), 'touchstone-world-export-'));
const first = path.join(root, 'first');
const second = path.join(root, 'second');
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Json;

/** Every file under `dir`, relative path → SHA-256 of its bytes. */
function digests(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const name of readdirSync(path.join(dir, at)).sort()) {
      const rel = path.join(at, name);
      if (statSync(path.join(dir, rel)).isDirectory()) walk(rel);
      else out[rel] = sha256(readFileSync(path.join(dir, rel)));
    }
  };
  walk('');
  return out;
}

function gitAvailable(): boolean {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

test.describe.configure({ mode: 'serial', timeout: 300_000 });

test.beforeAll(async () => {
  // Each export builds the world's Git data (the 3 × 100 MiB files: seconds).
  const results = await Promise.all([runCli(['world', 'export', '--out', first]), runCli(['world', 'export', '--out', second])]);
  for (const result of results) {
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/wrote the world to .*: 8 repositories \(4 with Git data\), 110 artifacts, 44 roles/);
  }
});

test.afterAll(() => rmSync(root, { recursive: true, force: true }));

test('two exports are byte-identical, and an export replaces an earlier one in its folder', async () => {
  const expected = digests(second);
  expect(digests(first)).toEqual(expected);
  expect(Object.keys(expected)).toEqual(expect.arrayContaining(['README.md', 'world.json', 'tokens.json', '.touchstone-world-export']));
  writeFileSync(path.join(first, 'stale.txt'), 'left from before\n');
  const again = await runCli(['world', 'export', '--out', first]);
  expect(again.code, again.stderr).toBe(0);
  expect(digests(first)).toEqual(expected);
});

test('world.json holds the world expanded: series, globs, generated files and artifact zips', () => {
  const world = readJson(path.join(first, 'world.json'));
  const logins = world.users.map((u: Json) => u.login);
  expect(logins).toHaveLength(115);
  expect(logins).toEqual(expect.arrayContaining(['octocat', 'dev-001', 'dev-105']));
  expect(world.users.find((u: Json) => u.login === 'dev-105').id).toBe(1105);
  expect(world.apps.map((a: Json) => a.slug)).toEqual(expect.arrayContaining(['gatekeeper', 'rule-app-001', 'rule-app-104']));

  const labs = world.organizations.find((o: Json) => o.login === 'octo-labs');
  expect(labs.members).toEqual(expect.arrayContaining(['dev-001', 'dev-105', 'octocat', 'sheriff']));
  expect(labs.variables.map((v: Json) => v.name)).toEqual(Array.from({ length: 35 }, (_, i) => `FLAG_${String(i + 1).padStart(3, '0')}`));
  expect(labs.assistant.seats).toHaveLength(106);
  const org = world.organizations.find((o: Json) => o.login === 'octo-org');
  expect(org.variables.find((v: Json) => v.name === 'RELEASE_CHANNEL')).toMatchObject({
    visibility: 'selected',
    selected_repositories: ['widgets', 'crowd'],
  });

  const widgets = world.repositories.find((r: Json) => r.name === 'widgets');
  expect(widgets.id).toBe(1000);
  const artifacts = widgets.workflow_runs.flatMap((run: Json) => run.artifacts);
  expect(artifacts).toHaveLength(109);
  const shard = artifacts.find((a: Json) => a.name === 'shard-105');
  expect(shard).toMatchObject({ id: 61105, files: { 'shard-105.txt': 'shard-105\n' } });
  for (const artifact of artifacts) {
    const zip = readFileSync(path.join(first, artifact.zip.path));
    expect(artifact.zip).toEqual({ path: `artifacts/octo-org/widgets/${artifact.id}.zip`, size: zip.length, sha256: sha256(zip) });
    expect(zip.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
  }
  expect(widgets.git.commits.map((c: Json) => c.oid)).toEqual([
    'e8b8ed93b0ebed4bb6b0fe1f3283bfa6386fece0',
    'bcd1d07d0db066a6f0a7cef2695fb465423c18fa',
    'b97130c7585f73602bc4c1b6344ea40a8b2cba58',
  ]);

  const assets = world.repositories.find((r: Json) => r.name === 'assets');
  const changes = assets.git.commits[0].changes;
  expect(Object.keys(changes).filter((p) => p.startsWith('many/'))).toHaveLength(1001);
  expect(changes['many/item-0001.txt']).toEqual({ text: 'item 0001\n' });
  expect(changes.many).toBeUndefined();
  // The rule README.md gives: the lines SEED:0, SEED:1, … cut at size bytes.
  const size = 1048577;
  let text = '';
  for (let n = 0; text.length < size; n++) text += `1:${n}\n`;
  const bytes = Buffer.from(text.slice(0, size));
  const listing = readJson(path.join(first, 'git/octo-org/assets.json'));
  const blob = listing.commits[0].files['sizes/1mib-plus-1.txt'].oid;
  expect(changes['sizes/1mib-plus-1.txt']).toEqual({ generated: { size, seed: 1, sha256: sha256(bytes), oid: blob } });
  expect(listing.blobs[blob]).toEqual({ size });
  expect(changes['sizes/100mib.txt'].generated).toMatchObject({
    size: 104857600,
    seed: 2,
    sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
  });

  const readme = readFileSync(path.join(first, 'README.md'), 'utf8');
  for (const file of ['world.json', 'tokens.json', 'git/OWNER/REPO.json', 'git/OWNER/REPO.git/', 'artifacts/OWNER/REPO/ID.zip'])
    expect(readme).toContain(`\`${file}\``);
});

test('tokens.json lists every role of the world with its token in words', () => {
  const tokens = readJson(path.join(first, 'tokens.json'));
  expect(tokens.map((t: Json) => t.role)).toEqual(Object.keys(readWorldTokens()));
  expect(tokens.find((t: Json) => t.role === 'fine-grained-org-admin')).toMatchObject({
    user: 'hubot',
    kind: 'fine-grained',
    description: 'fine-grained token of hubot, permissions organization_administration: write',
  });
});

test('git clone reads each repository and finds the objects and refs the listing names', () => {
  test.skip(!gitAvailable(), 'no git binary on this machine: the clone check needs one');
  const listed = readdirSync(path.join(first, 'git/octo-org')).filter((f) => f.endsWith('.json'));
  expect(listed.sort()).toEqual(['assets.json', 'empty.json', 'vault.json', 'widgets.json']);
  for (const file of listed) {
    const listing = readJson(path.join(first, 'git/octo-org', file));
    const clone = path.join(root, `clone-${file}`);
    execFileSync('git', ['clone', '--quiet', '--mirror', path.join(first, 'git/octo-org', file.replace('.json', '.git')), clone], {
      stdio: 'pipe',
    });
    const git = (...args: string[]) => execFileSync('git', ['--git-dir', clone, ...args], { encoding: 'utf8' }).trim();
    const refs = Object.fromEntries(
      git('for-each-ref', '--format=%(refname) %(objectname)')
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split(' ')),
    );
    const expectedRefs = {
      ...Object.fromEntries(Object.entries(listing.branches).map(([name, oid]) => [`refs/heads/${name}`, oid])),
      ...Object.fromEntries(Object.entries(listing.tags).map(([name, oid]) => [`refs/tags/${name}`, oid])),
    };
    expect(refs, file).toEqual(expectedRefs);
    const objects = new Set([...listing.commits.map((c: Json) => c.oid), ...Object.keys(listing.trees), ...Object.keys(listing.blobs)]);
    const cloned =
      Object.keys(expectedRefs).length === 0
        ? []
        : git('rev-list', '--objects', '--all')
            .split('\n')
            .map((line) => line.split(' ')[0]);
    expect(new Set(cloned), file).toEqual(objects);
    for (const commit of listing.commits) expect(git('rev-parse', `${commit.oid}^{tree}`)).toBe(commit.tree);
  }
});

test('an --out that is a file, a folder of other things or unwritable is a clear error, and is left alone', async () => {
  const dir = path.join(root, 'out');
  mkdirSync(dir);
  const file = path.join(dir, 'file.txt');
  writeFileSync(file, 'mine\n');
  const busy = path.join(dir, 'busy');
  mkdirSync(busy);
  writeFileSync(path.join(busy, 'notes.txt'), 'mine\n');
  const cases: [string, RegExp][] = [
    [file, /--out .*file\.txt is a file, not a folder/],
    [busy, /--out .*busy is a folder that holds other things than an earlier world export/],
    [path.join(file, 'below'), /cannot use --out .*file\.txt\/below: ENOTDIR/],
  ];
  const readOnly = path.join(dir, 'read-only');
  mkdirSync(readOnly);
  chmodSync(readOnly, 0o555);
  // root writes anywhere: the permission case needs an ordinary user.
  if (process.getuid?.() !== 0) cases.push([path.join(readOnly, 'world'), /cannot write the export to .*read-only\/world: EACCES/]);
  else if (existsSync('/sys/kernel')) cases.push(['/sys/touchstone-world', /cannot write the export to \/sys\/touchstone-world: E[A-Z]+/]);
  for (const [out, message] of cases) {
    const result = await runCli(['world', 'export', '--out', out]);
    expect(result.code, out).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toContain('bug in touchstone');
  }
  expect(readFileSync(file, 'utf8')).toBe('mine\n');
  expect(readdirSync(busy)).toEqual(['notes.txt']);
  expect(existsSync(path.join(readOnly, 'world'))).toBe(false);
});
