// `git` is the judge of the reference's repositories: the objects the world's commits
// become are read, listed and checked by git itself, through a bare repository that holds
// the store's objects (exported as loose objects) and the declared refs.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { loadWorld } from '../world-loader.js';
import { generatedBytes } from './generated-bytes.js';
import { worldRepository, type BuiltRepository } from './world-git.js';

const world = loadWorld();
const widgets = world.repositories.find((r) => r.name === 'widgets')!;

/** A bare repository with `built`'s refs whose objects are the store's. */
async function exported(built: BuiltRepository): Promise<{ git: (...args: string[]) => string; dir: string }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-export-'));
  const git = (...args: string[]) => execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8' });
  execFileSync('git', ['init', '-q', '--bare', dir]);
  await built.store.exportObjects(built.objects, dir);
  for (const [name, oid] of Object.entries(built.refs.branches)) git('update-ref', `refs/heads/${name}`, oid);
  for (const [name, oid] of Object.entries(built.refs.tags)) git('update-ref', `refs/tags/${name}`, oid);
  git('symbolic-ref', 'HEAD', `refs/heads/${built.refs.defaultBranch}`);
  return { git, dir };
}

test('git fsck finds the world repository whole: every commit, tree and blob well-formed and reachable', async () => {
  const { git, dir } = await exported((await worldRepository(world, widgets))!);
  try {
    expect(() => git('fsck', '--full', '--strict', '--no-dangling')).not.toThrow();
    expect(git('rev-list', '--count', '--all').trim()).toBe('3');
    expect(git('log', '--format=%an <%ae> %aI|%s', 'main').trim().split('\n')).toEqual([
      'defunkt <4+defunkt@users.noreply.touchstone.invalid> 2026-05-10T15:30:00+00:00|Link the README and vendor leftpad',
      'monalisa <3+monalisa@users.noreply.touchstone.invalid> 2026-05-01T10:00:00+00:00|Start the widgets',
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('trees hold what the world declares, with the modes git gives files, executables, symlinks and submodules', async () => {
  const built = (await worldRepository(world, widgets))!;
  const { git, dir } = await exported(built);
  try {
    const tree = git('ls-tree', '-r', '--format=%(objectmode) %(objecttype) %(path)', 'main').trim().split('\n');
    expect(tree).toEqual([
      '100644 blob .github/workflows/ci.yml',
      '100644 blob .gitmodules',
      '100644 blob README.md',
      '100644 blob docs/README.md',
      '100644 blob docs/guide.md',
      '120000 blob link-to-readme',
      '100644 blob logo.png',
      '120000 blob outside-link',
      '100755 blob scripts/build.sh',
      '100644 blob src/widget.ts',
      '160000 commit vendor/leftpad',
    ]);
    expect(git('cat-file', '-p', 'main:link-to-readme')).toBe('README.md');
    expect(git('cat-file', '-p', 'main:.gitmodules')).toBe(
      '[submodule "vendor/leftpad"]\n\tpath = vendor/leftpad\n\turl = https://example.com/left/pad.git\n',
    );
    expect(git('cat-file', '-p', 'v1.0:README.md')).toBe('# Widgets\n\nWidgets that do not wobble.\n');
    expect(git('ls-tree', '--name-only', 'experiment', 'src/').trim().split('\n')).toEqual(['src/damper.ts', 'src/widget.ts']);
    // A blob's id is git hash-object's for the same bytes.
    const readme = git('cat-file', '-p', 'main:README.md');
    expect(execFileSync('git', ['hash-object', '--stdin'], { input: readme, encoding: 'utf8' }).trim()).toBe(
      git('rev-parse', 'main:README.md').trim(),
    );
    expect(built.commits.get('second')).toBe(git('rev-parse', 'main').trim());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an empty repository has its default branch and no commits; a repository without git content has none', async () => {
  const empty = (await worldRepository(world, world.repositories.find((r) => r.name === 'empty')!))!;
  expect(empty.refs).toEqual({ defaultBranch: 'main', branches: {}, tags: {} });
  expect(worldRepository(world, world.repositories.find((r) => r.name === 'crowd')!)).toBeUndefined();
});

test('generated files: the size asked for, the same bytes for a seed, other bytes for another', () => {
  const a = generatedBytes(1_048_577, 7);
  expect(a.length).toBe(1_048_577);
  expect(generatedBytes(1_048_577, 7).equals(a)).toBe(true);
  expect(generatedBytes(1_048_577, 8).equals(a)).toBe(false);
  expect(generatedBytes(0, 1).length).toBe(0);
  // The documented form, which a third-party target reproduces: `<seed>:<line>\n` lines cut at the size.
  expect(generatedBytes(14, 7).toString('latin1')).toBe('7:0\n7:1\n7:2\n7:');
  // A smaller size is a prefix of a larger one, across the lines whose numbers grow a digit: the
  // build makes each seed once, at its largest size (world-git.ts generatedFiles).
  const long = generatedBytes(2_000_000, 3);
  for (const size of [1, 99_999, 100_000, 1_048_576]) expect(generatedBytes(size, 3).equals(long.subarray(0, size)), `${size}`).toBe(true);
});

test('each generated file of the world is the blob of its own bytes, whatever the other sizes of its seed', async () => {
  test.setTimeout(60_000);
  const withGenerated = world.repositories.filter((r) =>
    r.git?.commits.some((c) => Object.values(c.changes).some((entry) => entry !== null && 'generated' in entry)),
  );
  expect(withGenerated.length).toBeGreaterThan(0);
  for (const repository of withGenerated) {
    const built = (await worldRepository(world, repository))!;
    for (const commit of repository.git!.commits)
      for (const [file, entry] of Object.entries(commit.changes)) {
        if (entry === null || !('generated' in entry)) continue;
        const bytes = generatedBytes(entry.generated.size, entry.generated.seed);
        const blob = createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
        const held = await built.store.readBlob(blob);
        expect(built.objects.has(blob), file).toBe(true);
        expect(held.length, file).toBe(entry.generated.size);
        expect(Buffer.from(held).equals(bytes), file).toBe(true);
      }
  }
});
