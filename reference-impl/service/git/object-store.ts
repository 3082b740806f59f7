// A Git object database: blobs, trees and commits are Git's own objects, so their ids are the
// ones `git` computes. Trees and commits are written on disk (a bare repository's objects/
// folder) through isomorphic-git; refs are not kept here: each service instance holds its own
// (world-git.ts), while the objects, immutable and addressed by content, are shared by every
// instance of a process. exportObjects writes any of them as loose objects `git` reads.
//
// Decision: blobs are held in memory, as the bytes written, and written to disk only when
// exported. A loose blob is zlib-compressed: the world's three 100 MiB files cost 1.3 s of
// deflate and 75 MB of disk at every start of a reference that serves the Git areas, and
// reading one back inflated 100 MiB again per request. Held as written, a blob is named by one
// SHA-1 pass and served without a copy; the world's generated files share one buffer
// (world-git.ts), so the memory is what the largest of them takes.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { deflate } from 'node:zlib';
import git from 'isomorphic-git';
import { makeDirectory } from '../../../lib/make-directory.js';

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
  /** Keeps `bytes` as they are (not a copy): the caller never changes them afterwards. */
  writeBlob(bytes: Uint8Array): Promise<string>;
  writeTree(entries: TreeEntry[]): Promise<string>;
  writeCommit(commit: CommitObject): Promise<string>;
  /** The blob's bytes: the store's own, to read and never to change. */
  readBlob(oid: string): Promise<Uint8Array>;
  /** Writes these objects as loose objects into the bare repository `gitdir` (which exists). */
  exportObjects(oids: Iterable<string>, gitdir: string): Promise<void>;
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
  /** Blobs by id, as written (see the decision above). */
  const blobs = new Map<string, Uint8Array>();
  const sizes = new Map<string, number>();
  const readBlob = async (oid: string) => {
    const held = blobs.get(oid);
    if (held) return held;
    const { blob } = await git.readBlob({ ...at, oid });
    sizes.set(oid, blob.length);
    types.set(oid, 'blob');
    return blob;
  };
  const looseObject = (oid: string) => path.join('objects', oid.slice(0, 2), oid.slice(2));
  return {
    gitdir,
    async writeBlob(bytes) {
      const oid = createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
      if (!blobs.has(oid)) blobs.set(oid, bytes);
      sizes.set(oid, bytes.length);
      types.set(oid, 'blob');
      return oid;
    },
    async exportObjects(oids, to) {
      for (const oid of oids) {
        const file = path.join(to, looseObject(oid));
        makeDirectory(path.dirname(file));
        const held = blobs.get(oid);
        // Git's loose blob is zlib("blob <size>\0" + bytes). The deflate runs on libuv's thread
        // pool: a service beside the export keeps answering.
        if (held) fs.writeFileSync(file, await deflateAsync(Buffer.concat([Buffer.from(`blob ${held.length}\0`), held]), { level: 1 }));
        else fs.copyFileSync(path.join(gitdir, looseObject(oid)), file);
      }
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
      // Every blob this store holds has its type already.
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
