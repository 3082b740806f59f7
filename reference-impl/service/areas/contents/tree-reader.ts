// Finding what a path of a repository holds at a ref: the commit a ref names, then the
// path walked through its trees. Symlinks are followed only by the caller that asks.
import type { TreeEntry } from '../../git/object-store.js';
import type { RepositoryGit } from './git-state.js';

export type Located =
  | { kind: 'file'; path: string; sha: string; executable: boolean; size: number; bytes: () => Promise<Uint8Array> }
  | { kind: 'symlink'; path: string; sha: string; target: string }
  | { kind: 'submodule'; path: string; sha: string; url: string | undefined }
  | { kind: 'dir'; path: string; sha: string; entries: TreeEntry[] };

/** The commit a ref names: a branch, a tag, or the full SHA of a commit of the repository; the default branch without one. */
export async function resolveRef(git: RepositoryGit, ref: string | undefined): Promise<string | undefined> {
  const name = ref ?? git.refs.defaultBranch;
  const named = git.refs.branches[name] ?? git.refs.tags[name];
  if (named) return named;
  const sha = name.toLowerCase();
  if (/^[0-9a-f]{40}$/.test(sha) && git.objects.has(sha) && (await git.store.typeOf(sha)) === 'commit') return sha;
  return undefined;
}

/** What `path` ('' for the root) holds in the commit's tree, or undefined when nothing. */
export async function locate(git: RepositoryGit, commit: string, path: string): Promise<Located | undefined> {
  const { tree } = await git.store.readCommit(commit);
  const segments = path === '' ? [] : path.split('/');
  let entry: TreeEntry = { mode: '040000', path: '', oid: tree, type: 'tree' };
  for (const [i, segment] of segments.entries()) {
    if (entry.type !== 'tree') return undefined;
    const found: TreeEntry | undefined = (await git.store.readTree(entry.oid)).find((e) => e.path === segment);
    if (!found) return undefined;
    entry = found;
    if (found.type !== 'tree' && i < segments.length - 1) return undefined;
  }
  return describe(git, tree, entry, path);
}

/** Entries of a directory `locate` found in the commit, each described without walking from the root again. */
export async function describeEntries(
  git: RepositoryGit,
  commit: string,
  dir: Extract<Located, { kind: 'dir' }>,
  entries: readonly TreeEntry[],
): Promise<Located[]> {
  const { tree } = await git.store.readCommit(commit);
  return Promise.all(entries.map((entry) => describe(git, tree, entry, dir.path === '' ? entry.path : `${dir.path}/${entry.path}`)));
}

/** What one tree entry at `path` is; `commitTree` (the commit's root tree) holds `.gitmodules`. */
async function describe(git: RepositoryGit, commitTree: string, entry: TreeEntry, path: string): Promise<Located> {
  if (entry.type === 'tree') return { kind: 'dir', path, sha: entry.oid, entries: await git.store.readTree(entry.oid) };
  if (entry.type === 'commit') return { kind: 'submodule', path, sha: entry.oid, url: await submoduleUrl(git, commitTree, path) };
  if (entry.mode === '120000')
    return { kind: 'symlink', path, sha: entry.oid, target: Buffer.from(await git.store.readBlob(entry.oid)).toString('utf8') };
  // A file's bytes are read only when asked for: a listing of 100 MB files needs their sizes alone.
  const size = await git.store.blobSize(entry.oid);
  return { kind: 'file', path, sha: entry.oid, executable: entry.mode === '100755', size, bytes: () => git.store.readBlob(entry.oid) };
}

/** A symlink's target as a path of the repository, or undefined when it leaves it. */
export function linkTarget(linkPath: string, target: string): string | undefined {
  if (target.startsWith('/')) return undefined;
  const parts = linkPath.split('/').slice(0, -1);
  for (const segment of target.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(segment);
  }
  return parts.join('/');
}

/** The submodule's URL in the commit's `.gitmodules`. */
async function submoduleUrl(git: RepositoryGit, tree: string, path: string): Promise<string | undefined> {
  const gitmodules = (await git.store.readTree(tree)).find((e) => e.path === '.gitmodules' && e.type === 'blob');
  if (!gitmodules) return undefined;
  const text = Buffer.from(await git.store.readBlob(gitmodules.oid)).toString('utf8');
  // Each [submodule "…"] section's keys, whatever their order.
  const sections = text.split(/^\s*\[submodule\b.*$/m).slice(1);
  for (const section of sections) {
    const value = (key: string) => new RegExp(`^\\s*${key}\\s*=\\s*(.*?)\\s*$`, 'm').exec(section)?.[1];
    if (value('path') === path) return value('url');
  }
  return undefined;
}

/**
 * A directory's entries in the order of the variation contents.listing-order (the spec gives
 * none): directories first, then the rest, each by name case-insensitively, as some hosts
 * and file browsers list them. The reference otherwise keeps Git's tree order.
 */
export function listingOrder(entries: readonly TreeEntry[]): TreeEntry[] {
  const rank = (entry: TreeEntry) => (entry.type === 'tree' ? 0 : 1);
  return [...entries].sort(
    (a, b) => rank(a) - rank(b) || a.path.localeCompare(b.path, 'en', { sensitivity: 'base' }) || (a.path < b.path ? -1 : 1),
  );
}
