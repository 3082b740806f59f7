// The tar archive of a repository's tree at a commit, as `git archive --format=tar.gz` makes
// it: one top-level folder `<owner>-<repo>-<short sha>/`, directories, files with their
// executable bit, symlinks with their targets, submodules as empty directories, every entry
// dated with the commit's committer date (so an archive is the same bytes every time).
// tar-stream writes the tar and node:zlib compresses it.
//
// Decision where the spec is silent: no pax global header with the commit id (tar-stream
// does not write one); the commit is in the folder name.
import { gzipSync } from 'node:zlib';
import { pack } from 'tar-stream';
import type { RepositoryGit } from './git-state.js';

export async function tarball(git: RepositoryGit, commit: string, folder: string): Promise<Buffer> {
  const { tree, committer } = await git.store.readCommit(commit);
  const mtime = new Date(committer.timestamp * 1000);
  const archive = pack();
  const chunks: Buffer[] = [];
  archive.on('data', (chunk) => chunks.push(chunk as Buffer));
  const ended = new Promise<void>((resolve, reject) => {
    archive.on('end', resolve);
    archive.on('error', reject);
  });
  const add = (header: Parameters<typeof archive.entry>[0], body: Buffer = Buffer.alloc(0)) =>
    new Promise<void>((resolve, reject) =>
      archive.entry({ mtime, uname: '', gname: '', ...header }, body, (e) => (e ? reject(e) : resolve())),
    );
  const walk = async (oid: string, prefix: string): Promise<void> => {
    await add({ name: `${prefix}/`, type: 'directory', mode: 0o775 });
    for (const entry of await git.store.readTree(oid)) {
      const name = `${prefix}/${entry.path}`;
      if (entry.type === 'tree') await walk(entry.oid, name);
      else if (entry.type === 'commit') await add({ name: `${name}/`, type: 'directory', mode: 0o775 });
      else {
        const bytes = Buffer.from(await git.store.readBlob(entry.oid));
        if (entry.mode === '120000') await add({ name, type: 'symlink', linkname: bytes.toString('utf8'), mode: 0o777 });
        else await add({ name, type: 'file', mode: entry.mode === '100755' ? 0o775 : 0o664 }, bytes);
      }
    }
  };
  await walk(tree, folder);
  archive.finalize();
  await ended;
  return gzipSync(Buffer.concat(chunks));
}
