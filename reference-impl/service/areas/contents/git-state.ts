// The Git side of each repository for one service instance: the object store the world's
// commits were built into (shared by the process, world-git.ts) and the refs, which this
// instance owns and a reset returns to the world's. A repository the world gives no Git
// content is an empty repository: no commits, default branch main.
import type { Directory } from '../../directory.js';
import { fullName } from '../../directory.js';
import type { ObjectStore } from '../../git/object-store.js';
import { processObjectStore, worldRepository, type GitRefs } from '../../git/world-git.js';
import type { WorldRepository } from '../../world-model.js';

export interface RepositoryGit {
  store: ObjectStore;
  refs: GitRefs;
  /** The repository's objects: the world's, and those written through the API since the last reset. */
  objects: Set<string>;
  /** Branches a write through the contents API is changing right now (file-writes.ts). */
  writing: Set<string>;
}

/** No commit on any branch yet. */
export const isEmpty = (git: RepositoryGit) => Object.keys(git.refs.branches).length === 0;

export interface GitState {
  of(repository: WorldRepository): Promise<RepositoryGit>;
  reset(): void;
}

export function createGitState(directory: Directory): GitState {
  let states = new Map<string, Promise<RepositoryGit>>();
  const load = async (repository: WorldRepository): Promise<RepositoryGit> => {
    const built = await worldRepository(directory.world, repository);
    if (!built)
      return {
        store: await processObjectStore(),
        refs: { defaultBranch: 'main', branches: {}, tags: {} },
        objects: new Set(),
        writing: new Set(),
      };
    const refs = structuredClone(built.refs);
    return { store: built.store, refs, objects: new Set(built.objects), writing: new Set() };
  };
  return {
    of(repository) {
      const key = fullName(repository);
      let state = states.get(key);
      if (!state) states.set(key, (state = load(repository)));
      return state;
    },
    reset() {
      states = new Map();
    },
  };
}
