// The world's repositories as Git repositories: each declared commit becomes a real commit
// object (its tree built from its parent's and its `changes`, author and committer from
// the world's user and date), and branches and tags point at them. The objects go to one
// object store per process (building a repository with 100 MB files costs most of a second,
// and every service instance of a test run shares them); refs are returned for each instance
// to hold and change.
//
// Decisions where the brief is silent:
// - Author and committer are the world user `author`: name = login, email =
//   `<id>+<login>@users.noreply.touchstone.invalid` (the shape real hosts give users who
//   keep their address private; `.invalid` never resolves). Time zone UTC.
// - A submodule is a gitlink (mode 160000) plus its entry in `.gitmodules`, which the
//   reference writes for every submodule of a tree, as `git submodule add` would; a world
//   that declares `.gitmodules` itself has it replaced.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { World, WorldGitEntry, WorldGitRepository, WorldRepository } from '../world-model.js';
import { generatedBytes } from './generated-bytes.js';
import { openObjectStore, type ObjectStore, type TreeEntry } from './object-store.js';

export interface GitRefs {
  defaultBranch: string;
  /** Branch name → commit SHA. */
  branches: Record<string, string>;
  /** Tag name → commit SHA. */
  tags: Record<string, string>;
}

export interface BuiltRepository {
  store: ObjectStore;
  /** The world's commit ids → their SHAs. */
  commits: ReadonlyMap<string, string>;
  /** The refs as the world declares them (copy before changing). */
  refs: GitRefs;
  /** Every object of the repository (the store holds other repositories' too). */
  objects: ReadonlySet<string>;
}

/** A file of a commit's tree: what the world says a path holds, resolved to a blob or a gitlink (with its URL). */
type Leaf = { mode: TreeEntry['mode']; oid: string; type: 'blob' | 'commit'; url?: string };

/** The address a user's commits carry (see the decisions above). */
export const noreplyEmail = (login: string, id: number) => `${id}+${login}@users.noreply.touchstone.invalid`;

let processStore: Promise<ObjectStore> | undefined;
const built = new Map<string, Promise<BuiltRepository>>();

/** The process's object store, in a temporary folder removed when the process exits. */
export function processObjectStore(): Promise<ObjectStore> {
  if (!processStore) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-git-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    processStore = openObjectStore(dir);
  }
  return processStore;
}

/**
 * Starts building every repository's Git objects (once per process and world); the promise
 * settles when all are built, for a caller that would rather wait now than in a request. A
 * failed build fails again, and is reported, when a request needs that repository.
 */
export async function warmWorldGit(world: World): Promise<void> {
  await Promise.all(world.repositories.map((repository) => worldRepository(world, repository)?.catch(() => undefined)));
}

/** The repository's Git objects and declared refs, built once per process and world. */
export function worldRepository(world: World, repository: WorldRepository): Promise<BuiltRepository> | undefined {
  const declared = repository.git;
  if (!declared) return undefined;
  const key = `${world.source}\n${repository.owner}/${repository.name}`;
  let promise = built.get(key);
  if (!promise) {
    promise = processObjectStore().then((store) => build(store, world, declared));
    built.set(key, promise);
  }
  return promise;
}

async function build(store: ObjectStore, world: World, declared: WorldGitRepository): Promise<BuiltRepository> {
  const commits = new Map<string, string>();
  const trees = new Map<string, Map<string, Leaf>>();
  const blobs = new Map<string, string>();
  const objects = new Set<string>();
  const remember = (oid: string) => {
    objects.add(oid);
    return oid;
  };
  const blob = async (bytes: Uint8Array) => remember(await store.writeBlob(bytes));
  const generated = generatedFiles(declared);
  for (const commit of declared.commits) {
    const [first] = commit.parents ?? [];
    const files = new Map(first === undefined ? [] : trees.get(first));
    for (const [filePath, entry] of Object.entries(commit.changes)) {
      if (entry === null) files.delete(filePath);
      else if ('series' in entry)
        for (const [name, text] of seriesFiles(entry.series))
          files.set(`${filePath}/${name}`, await leafOf({ text }, blob, blobs, generated));
      else files.set(filePath, await leafOf(entry, blob, blobs, generated));
    }
    await writeGitmodules(files, blob);
    trees.set(commit.id, files);
    const user = world.users.find((u) => u.login === commit.author);
    const signature = {
      name: commit.author,
      email: noreplyEmail(commit.author, user?.id ?? 0),
      timestamp: Math.floor(Date.parse(commit.date) / 1000),
    };
    const oid = await store.writeCommit({
      tree: remember(await writeTrees(store, files, remember)),
      parents: (commit.parents ?? []).map((id) => commits.get(id) ?? ''),
      author: signature,
      committer: signature,
      message: commit.message,
    });
    commits.set(commit.id, remember(oid));
  }
  const resolve = (names: Record<string, string> = {}) =>
    Object.fromEntries(Object.entries(names).map(([name, id]) => [name, commits.get(id) ?? '']));
  return {
    store,
    commits,
    refs: { defaultBranch: declared.default_branch, branches: resolve(declared.branches), tags: resolve(declared.tags) },
    objects,
  };
}

/** The files of a `series`: name → text, `{n}` counting from 1, zero-padded to the width of `count`. */
export function seriesFiles({ count, name, text }: { count: number; name: string; text: string }): [string, string][] {
  return Array.from({ length: count }, (_, index) => {
    const n = String(index + 1).padStart(String(count).length, '0');
    return [name.replaceAll('{n}', n), text.replaceAll('{n}', n)];
  });
}

/**
 * The bytes of the repository's generated files. A generated file is a prefix of every larger
 * one of its seed (generated-bytes.ts), so each seed is generated once, at the largest size the
 * repository declares, and the smaller sizes are views of it: the size boundaries (100 MiB - 1,
 * 100 MiB, 100 MiB + 1) cost one generation, not three.
 */
function generatedFiles(declared: WorldGitRepository): (size: number, seed: number) => Uint8Array {
  const largest = new Map<number, number>();
  for (const commit of declared.commits)
    for (const entry of Object.values(commit.changes))
      if (entry && 'generated' in entry) {
        const { size, seed } = entry.generated;
        largest.set(seed, Math.max(size, largest.get(seed) ?? 0));
      }
  const made = new Map<number, Buffer>();
  return (size, seed) => {
    let bytes = made.get(seed);
    if (!bytes) made.set(seed, (bytes = generatedBytes(largest.get(seed) ?? size, seed)));
    return bytes.subarray(0, size);
  };
}

async function leafOf(
  entry: Exclude<WorldGitEntry, { series: unknown }>,
  blob: (bytes: Uint8Array) => Promise<string>,
  cache: Map<string, string>,
  generated: (size: number, seed: number) => Uint8Array,
): Promise<Leaf> {
  if ('submodule' in entry) return { mode: '160000', oid: entry.submodule.commit, type: 'commit', url: entry.submodule.url };
  if ('symlink' in entry) return { mode: '120000', oid: await blob(Buffer.from(entry.symlink)), type: 'blob' };
  if ('generated' in entry) {
    // Generated files are big: each (size, seed) is named once per build.
    const key = `${entry.generated.size}:${entry.generated.seed}`;
    let oid = cache.get(key);
    if (oid === undefined) cache.set(key, (oid = await blob(generated(entry.generated.size, entry.generated.seed))));
    return { mode: '100644', oid, type: 'blob' };
  }
  const bytes = 'text' in entry ? Buffer.from(entry.text) : Buffer.from(entry.base64, 'base64');
  return { mode: 'text' in entry && entry.executable ? '100755' : '100644', oid: await blob(bytes), type: 'blob' };
}

/** `.gitmodules` names every submodule of the tree, as `git submodule add` writes it; none, no file. */
async function writeGitmodules(files: Map<string, Leaf>, blob: (bytes: Uint8Array) => Promise<string>): Promise<void> {
  const submodules = [...files].filter(([, leaf]) => leaf.url !== undefined).sort(([a], [b]) => (a < b ? -1 : 1));
  if (submodules.length === 0) return void files.delete('.gitmodules');
  const text = submodules.map(([p, leaf]) => `[submodule "${p}"]\n\tpath = ${p}\n\turl = ${leaf.url}\n`).join('');
  files.set('.gitmodules', { mode: '100644', oid: await blob(Buffer.from(text)), type: 'blob' });
}

/** The tree objects of a set of files, bottom-up; the root tree's SHA. */
async function writeTrees(store: ObjectStore, files: Map<string, Leaf>, remember: (oid: string) => string): Promise<string> {
  const write = async (prefix: string): Promise<string> => {
    const entries: TreeEntry[] = [];
    const subdirectories = new Set<string>();
    for (const [filePath, leaf] of files) {
      if (!filePath.startsWith(prefix)) continue;
      const rest = filePath.slice(prefix.length);
      const slash = rest.indexOf('/');
      if (slash < 0) entries.push({ path: rest, mode: leaf.mode, oid: leaf.oid, type: leaf.type });
      else subdirectories.add(rest.slice(0, slash));
    }
    for (const name of subdirectories)
      entries.push({ mode: '040000', path: name, oid: remember(await write(`${prefix}${name}/`)), type: 'tree' });
    return store.writeTree(entries);
  };
  return write('');
}
