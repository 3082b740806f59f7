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
  /**
   * The refs of each repository whose refs moved since the reset (the state digest's part):
   * a repository read for the first time is built, which changes nothing a client can see.
   */
  snapshot(): Promise<unknown>;
}

export function createGitState(directory: Directory): GitState {
  let states = new Map<string, Promise<RepositoryGit>>();
  let repositories = new Map<string, WorldRepository>();
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
  const emptyRefs = JSON.stringify({ defaultBranch: 'main', branches: {}, tags: {} });
  const worldRefs = async (repository: WorldRepository) => {
    const built = await worldRepository(directory.world, repository);
    return built ? JSON.stringify(built.refs) : emptyRefs;
  };
  return {
    of(repository) {
      const key = fullName(repository);
      let state = states.get(key);
      if (!state) {
        states.set(key, (state = load(repository)));
        repositories.set(key, repository);
      }
      return state;
    },
    reset() {
      states = new Map();
      repositories = new Map();
    },
    async snapshot() {
      const moved: Array<[string, string]> = [];
      for (const [key, state] of states) {
        const refs = JSON.stringify((await state).refs);
        if (refs !== (await worldRefs(repositories.get(key)!))) moved.push([key, refs]);
      }
      return moved;
    },
  };
}
