// One file written or deleted through the contents API (endpoints 16, 17): a new commit on
// a branch whose tree differs from its parent's at one path, built from Git objects
// (object-store.ts) and published by moving the branch.
//
// Decisions where the spec is silent (README "Writing files"), with the variations
// (suites/variants/contents.yaml) that make them the other way:
// - A write to a branch while another write to it is under way is 409: rule 7 says
//   concurrent writes conflict, so the second is refused instead of queued, merged or
//   allowed to overwrite the first. Writes to other branches or repositories go on.
//   contents.writes-queued: a write waits for the one under way, then is judged on its sha
//   against the branch as that one left it (so the later of two writes on one base is
//   refused as stale), and a stale sha is 422.
// - The caller's `sha` must be the blob the path holds on the branch now: 409 otherwise, as
//   real hosts answer ("does not match"); a `sha` for a path that holds nothing is 409 too
//   (the caller's view is stale). Updating an existing file without `sha` is 422
//   (a required parameter missing); contents.missing-sha-409: 409 (a write in conflict with
//   the file there), the other status 16 lists.
// - Only files are written: a path whose parent is a file, or that names a directory, a
//   symlink or a submodule, is 422. An update keeps the file's executable bit.
// - `branch` must exist (404 otherwise), except in an empty repository, whose first commit
//   creates the branch it names, which becomes the default branch (as a first push does).
// - Deleting a directory's last file removes the directory (Git has no empty trees).
import type { CommitObject, Signature, TreeEntry } from '../../git/object-store.js';
import { ApiError, notFound, validationFailed } from '../../errors.js';
import { isEmpty, type RepositoryGit } from './git-state.js';

export interface FileWrite {
  branch: string | undefined;
  path: string;
  /** The new bytes; null deletes the file. */
  bytes: Uint8Array | null;
  /** The blob the caller read (`sha`). */
  sha: string | undefined;
  message: string;
  author: Signature;
  committer: Signature;
  /** The resource `errors[]` names (the request body's title). */
  resource: string;
}

export interface FileWritten {
  branch: string;
  commit: string;
  object: CommitObject;
  /** The file's new blob (undefined after a delete). */
  blob: string | undefined;
  created: boolean;
}

/** Fault switches this module honours. */
export interface WriteFaults {
  /** No guard against concurrent writes, and the branch moved to whatever finished last (lost updates). */
  lastWriteWins: boolean;
  /** The caller's sha is not compared with the current blob. */
  shaUnchecked: boolean;
  /** Each commit made a root commit, its history dropped. */
  parentDropped: boolean;
  /** A delete answered as done while the file stays. */
  deleteKept: boolean;
}

/** Choices the spec leaves open, made otherwise by variations. */
export interface WriteChoices {
  /** contents.missing-sha-409: an update without `sha` is 409, not 422. */
  missingShaConflict: boolean;
  /** contents.writes-queued: a write waits for the one under way instead of 409; a stale sha is 422. */
  queued: boolean;
}

const REFERENCE_CHOICES: WriteChoices = { missingShaConflict: false, queued: false };

/** Runs `write` unless another write to the branch is under way (409). */
async function exclusively<T>(git: RepositoryGit, branch: string, write: () => Promise<T>): Promise<T> {
  if (git.writing.has(branch)) throw new ApiError(409, 'CONFLICT', `${branch} is being written by another request; try again.`);
  const running = write();
  git.writing.set(branch, running);
  try {
    return await running;
  } finally {
    git.writing.delete(branch);
  }
}

/** Runs `write` once every write to the branch before it has finished (contents.writes-queued). */
async function inTurn<T>(git: RepositoryGit, branch: string, write: () => Promise<T>): Promise<T> {
  const before = git.writing.get(branch) ?? Promise.resolve();
  const running = before.then(write, write);
  const settled = running.catch(() => undefined);
  git.writing.set(branch, settled);
  try {
    return await running;
  } finally {
    if (git.writing.get(branch) === settled) git.writing.delete(branch);
  }
}

export async function writeFile(
  git: RepositoryGit,
  change: FileWrite,
  faults: WriteFaults,
  choices: WriteChoices = REFERENCE_CHOICES,
): Promise<FileWritten> {
  const empty = isEmpty(git);
  const branch = change.branch ?? git.refs.defaultBranch;
  if (!empty && git.refs.branches[branch] === undefined) throw new ApiError(404, 'NOT_FOUND', `Branch ${branch} not found`);
  if (empty && change.bytes === null) throw notFound();
  const run = async (): Promise<FileWritten> => {
    // Read again in turn: a queued write finds the branch as the writes before it left it.
    const first = isEmpty(git);
    const parent = first ? undefined : git.refs.branches[branch];
    const baseTree = parent === undefined ? undefined : (await git.store.readCommit(parent)).tree;
    const invalid = (field: string) => validationFailed([{ resource: change.resource, field, code: 'invalid' }]);
    const segments = change.path.split('/');
    const current = await leafAt(git, baseTree, segments, invalid);
    if (current !== undefined && current.type !== 'blob') throw invalid('path');
    if (current?.mode === '120000') throw invalid('path');
    if (change.bytes === null && current === undefined) throw notFound();
    if (!faults.shaUnchecked) {
      if (current !== undefined && change.sha === undefined)
        throw choices.missingShaConflict
          ? new ApiError(409, 'CONFLICT', `${change.path} exists: give the sha of the file you replace`)
          : validationFailed([{ resource: change.resource, field: 'sha', code: 'missing_field' }]);
      if (change.sha !== undefined && change.sha.toLowerCase() !== current?.oid)
        throw choices.queued
          ? validationFailed([{ resource: change.resource, field: 'sha', code: 'invalid' }])
          : new ApiError(409, 'CONFLICT', `${change.path} does not match ${change.sha}`);
    }
    const remember = (oid: string) => {
      git.objects.add(oid);
      return oid;
    };
    const blob = change.bytes === null ? undefined : remember(await git.store.writeBlob(change.bytes));
    const leaf: TreeEntry | null =
      blob === undefined ? null : { mode: current?.mode ?? '100644', path: segments.at(-1)!, oid: blob, type: 'blob' };
    const tree =
      change.bytes === null && faults.deleteKept
        ? baseTree!
        : ((await replaced(git, baseTree, segments, leaf, remember)) ?? remember(await git.store.writeTree([])));
    const object: CommitObject = {
      tree,
      parents: parent === undefined || faults.parentDropped ? [] : [parent],
      author: change.author,
      committer: change.committer,
      message: change.message,
    };
    const commit = remember(await git.store.writeCommit(object));
    git.refs.branches[branch] = commit;
    if (first) git.refs.defaultBranch = branch;
    return { branch, commit, object, blob, created: current === undefined };
  };
  if (faults.lastWriteWins) return run();
  return choices.queued ? inTurn(git, branch, run) : exclusively(git, branch, run);
}

/** The entry at `segments` below `tree`, or undefined; 422 when a parent is not a directory. */
async function leafAt(
  git: RepositoryGit,
  tree: string | undefined,
  segments: string[],
  invalid: (field: string) => ApiError,
): Promise<TreeEntry | undefined> {
  let entries = tree === undefined ? [] : await git.store.readTree(tree);
  for (const [i, segment] of segments.entries()) {
    const found = entries.find((e) => e.path === segment);
    if (found === undefined || i === segments.length - 1) return found;
    if (found.type !== 'tree') throw invalid('path');
    entries = await git.store.readTree(found.oid);
  }
  return undefined;
}

/** The tree `tree` becomes with `leaf` at `segments` (null: removed); undefined when nothing is left in it. */
async function replaced(
  git: RepositoryGit,
  tree: string | undefined,
  segments: string[],
  leaf: TreeEntry | null,
  remember: (oid: string) => string,
): Promise<string | undefined> {
  const [name, ...rest] = segments;
  const all = tree === undefined ? [] : await git.store.readTree(tree);
  const existing = all.find((e) => e.path === name);
  const entries = all.filter((e) => e !== existing);
  if (rest.length === 0) {
    if (leaf) entries.push(leaf);
  } else {
    const subtree = await replaced(git, existing?.type === 'tree' ? existing.oid : undefined, rest, leaf, remember);
    if (subtree !== undefined) entries.push({ mode: '040000', path: name, oid: subtree, type: 'tree' });
  }
  return entries.length === 0 ? undefined : remember(await git.store.writeTree(entries));
}
