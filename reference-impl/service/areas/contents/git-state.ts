// The Git side of each repository for one service instance: the object store the world's
// commits were built into (shared by the process, world-git.ts) and the refs, which this
// instance owns and a reset returns to the world's. A repository the world gives no Git
// content is an empty repository: no commits, default branch main.
//
// The world's objects are built once per process, when first needed; the first request for
// the Git data of any repository starts building every repository's in the background. The
// files of the size boundaries (3 × 100 MiB) take seconds to generate, hash and compress, and
// on a loaded machine more than a request's time bound (15 s): built while the first
// requests are served, they are ready before a request needs them. A service that is never
// asked for Git data (another area's tests) builds nothing. A run that will ask for it starts
// the build as the reference starts (embedded-reference.ts, warmGit).
import type { Directory } from '../../directory.js';
import { fullName } from '../../directory.js';
import type { ObjectStore } from '../../git/object-store.js';
import { processObjectStore, warmWorldGit, worldRepository, type GitRefs } from '../../git/world-git.js';
import type { WorldRepository } from '../../world-model.js';

export interface RepositoryGit {
  store: ObjectStore;
  refs: GitRefs;
  /** The repository's objects: the world's, and those written through the API since the last reset. */
  objects: Set<string>;
  /**
   * Branches a write through the contents API is changing right now (file-writes.ts), each
   * with the end of the last write to it: what a queued write waits for.
   */
  writing: Map<string, Promise<unknown>>;
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
  let warming = false;
  const warm = () => {
    if (warming) return;
    warming = true;
    void warmWorldGit(directory.world);
  };
  const load = async (repository: WorldRepository): Promise<RepositoryGit> => {
    const built = await worldRepository(directory.world, repository);
    if (!built)
      return {
        store: await processObjectStore(),
        refs: { defaultBranch: 'main', branches: {}, tags: {} },
        objects: new Set(),
        writing: new Map(),
      };
    const refs = structuredClone(built.refs);
    return { store: built.store, refs, objects: new Set(built.objects), writing: new Map() };
  };
  const emptyRefs = JSON.stringify({ defaultBranch: 'main', branches: {}, tags: {} });
  const worldRefs = async (repository: WorldRepository) => {
    const built = await worldRepository(directory.world, repository);
    return built ? JSON.stringify(built.refs) : emptyRefs;
  };
  return {
    of(repository) {
      warm();
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
