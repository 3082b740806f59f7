// A Git object database on disk (a bare repository's objects/ folder), written and read
// through isomorphic-git: blobs, trees and commits are Git's own objects, so their ids are
// the ones `git` computes, and `git` can read the folder. Refs are not kept here: each
// service instance holds its own (world-git.ts), while the objects, immutable and
// addressed by content, are shared by every instance of a process.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { deflate } from 'node:zlib';
import git from 'isomorphic-git';

export type TreeEntryMode = '100644' | '100755' | '120000' | '160000' | '040000';

export interface TreeEntry {
  mode: TreeEntryMode;
  /** One path segment. */
  path: string;
  oid: string;
  type: 'blob' | 'tree' | 'commit';
}

export type ObjectType = 'blob' | 'tree' | 'commit' | 'tag';

export interface Signature {
  name: string;
  email: string;
  /** Seconds since the epoch. */
  timestamp: number;
}

export interface CommitObject {
  tree: string;
  parents: string[];
  author: Signature;
  committer: Signature;
  message: string;
}

export interface ObjectStore {
  readonly gitdir: string;
  writeBlob(bytes: Uint8Array): Promise<string>;
  writeTree(entries: TreeEntry[]): Promise<string>;
  writeCommit(commit: CommitObject): Promise<string>;
  readBlob(oid: string): Promise<Uint8Array>;
  /** A blob's size in bytes, without reading it again when this store wrote or read it before. */
  blobSize(oid: string): Promise<number>;
  readTree(oid: string): Promise<TreeEntry[]>;
  readCommit(oid: string): Promise<CommitObject>;
  /** The object's type, or undefined when the store does not hold it. */
  typeOf(oid: string): Promise<ObjectType | undefined>;
}

const deflateAsync = promisify(deflate);

const signature = (s: Signature) => ({ name: s.name, email: s.email, timestamp: s.timestamp, timezoneOffset: 0 });

/** A store over `gitdir`, created (as a bare repository) when it does not exist. */
export async function openObjectStore(gitdir: string): Promise<ObjectStore> {
  if (!fs.existsSync(`${gitdir}/objects`)) await git.init({ fs, dir: gitdir, gitdir, bare: true, defaultBranch: 'main' });
  const at = { fs, gitdir };
  const types = new Map<string, ObjectType>();
  const sizes = new Map<string, number>();
  const readBlob = async (oid: string) => {
    const { blob } = await git.readBlob({ ...at, oid });
    sizes.set(oid, blob.length);
    types.set(oid, 'blob');
    return blob;
  };
  return {
    gitdir,
    async writeBlob(bytes) {
      // Git's loose blob is zlib("blob <size>\0" + bytes), named by the SHA-1 of what is
      // compressed. Node's crypto and zlib make it (isomorphic-git's JavaScript deflate takes
      // seconds over the world's 100 MB files) and isomorphic-git stores it. The deflate runs
      // on libuv's thread pool: the 100 MB files take seconds, during which the service (and,
      // in-process, the harness) keep answering; deflateSync once stalled them past a
      // request's 15 s bound on a loaded machine (a false failure of the kill matrix in CI).
      const wrapped = [Buffer.from(`blob ${bytes.length}\0`), bytes];
      const oid = wrapped.reduce((hash, part) => hash.update(part), createHash('sha1')).digest('hex');
      if (sizes.get(oid) === undefined) {
        const object = await deflateAsync(Buffer.concat(wrapped), { level: 1 });
        await git.writeObject({ ...at, type: 'blob', object, format: 'deflated', oid });
      }
      sizes.set(oid, bytes.length);
      // Known to be a blob: typeOf need not inflate it (100 MB takes seconds) to say so.
      types.set(oid, 'blob');
      return oid;
    },
    writeTree: (entries) => git.writeTree({ ...at, tree: entries }),
    writeCommit: (commit) =>
      git.writeCommit({
        ...at,
        commit: {
          tree: commit.tree,
          parent: commit.parents,
          author: signature(commit.author),
          committer: signature(commit.committer),
          message: commit.message.endsWith('\n') ? commit.message : `${commit.message}\n`,
        },
      }),
    readBlob,
    blobSize: async (oid) => sizes.get(oid) ?? (await readBlob(oid)).length,
    readTree: async (oid) => (await git.readTree({ ...at, oid })).tree as TreeEntry[],
    async readCommit(oid) {
      const { commit } = await git.readCommit({ ...at, oid });
      const unsign = (s: typeof commit.author): Signature => ({ name: s.name, email: s.email, timestamp: s.timestamp });
      return {
        tree: commit.tree,
        parents: commit.parent,
        author: unsign(commit.author),
        committer: unsign(commit.committer),
        message: commit.message,
      };
    },
    async typeOf(oid) {
      // Reading the type inflates the object; objects never change, so each is read once.
      let type = types.get(oid);
      if (type === undefined) {
        try {
          type = (await git.readObject({ ...at, oid, format: 'content' })).type as ObjectType;
        } catch (error) {
          if ((error as { code?: string }).code === 'NotFoundError') return undefined;
          throw error;
        }
        types.set(oid, type);
      }
      return type;
    },
  };
}
