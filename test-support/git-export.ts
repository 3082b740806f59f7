// For tests that let `git` judge the reference's repositories: the objects a commit reaches,
// written as loose objects into a bare repository (the object store holds its blobs in memory,
// so git cannot borrow its folder).
import type { ObjectStore } from '../reference-impl/service/git/object-store.js';

/** Exports every object the commits reach (parents, trees, blobs; a submodule's commit is not the store's) into `gitdir`. */
export async function exportReachable(store: ObjectStore, commits: readonly string[], gitdir: string): Promise<void> {
  const seen = new Set<string>();
  const tree = async (oid: string): Promise<void> => {
    if (seen.has(oid)) return;
    seen.add(oid);
    for (const entry of await store.readTree(oid))
      if (entry.type === 'tree') await tree(entry.oid);
      else if (entry.type === 'blob') seen.add(entry.oid);
  };
  const pending = [...commits];
  for (let oid = pending.pop(); oid !== undefined; oid = pending.pop()) {
    if (seen.has(oid)) continue;
    seen.add(oid);
    const commit = await store.readCommit(oid);
    await tree(commit.tree);
    pending.push(...commit.parents);
  }
  await store.exportObjects(seen, gitdir);
}
