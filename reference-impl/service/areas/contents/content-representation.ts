// The Content entry (spec 1, Resources): a file, a directory's listing entries, a symlink
// description or a submodule, with the URLs a client follows from it.
//
// Decisions where the spec is silent (README "Repository contents"):
// - `url` names the ref the entry was read at (`?ref=`), as real hosts do; `html_url` is
//   ORIGIN/OWNER/REPO/blob|tree/REF/PATH.
// - `download_url` (files and symlinks only) is a single-use link valid for five minutes of
//   the service clock (downloads.ts), a new one at each read.
// - A submodule is hosted here when its URL is relative (`../other.git`), resolved against
//   this repository as git does; an absolute URL is another host's, and then `git_url`,
//   `html_url` and their `_links` are null.
import { createHash } from 'node:crypto';
import type { Downloads } from '../../downloads.js';
import type { Faults } from '../../faults.js';
import type { Representer } from '../../representations.js';
import type { WorldRepository } from '../../world-model.js';
import type { Located } from './tree-reader.js';

export const DOWNLOAD_TTL_MS = 5 * 60 * 1000;

export interface EntryContext {
  base: Representer;
  faults: Faults;
  repository: WorldRepository;
  ref: string;
  downloads: Downloads;
}

const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');
const nameOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);

const sizeOf = (item: Located) => (item.kind === 'file' ? item.bytes.length : item.kind === 'symlink' ? Buffer.byteLength(item.target) : 0);

/** The entry of `item`; with `withContent`, a file's bytes in Base64 too. */
export function representEntry(context: EntryContext, item: Located, withContent = false) {
  const { base, repository, ref, downloads, faults } = context;
  const plain = faults.on('contents.content-plain');
  // The fault: a file's sha as the SHA-1 of its bytes alone, not Git's blob id.
  const sha =
    item.kind === 'file' && faults.on('contents.sha-without-header') ? createHash('sha1').update(item.bytes).digest('hex') : item.sha;
  const api = `${base.origin}/repos/${repository.owner}/${repository.name}`;
  const url = `${api}/contents/${encodePath(item.path)}?ref=${encodeURIComponent(ref)}`;
  const hostedHere = item.kind !== 'submodule' || (item.url !== undefined && /^\.\.?\//.test(item.url));
  const git_url = !hostedHere ? null : `${api}/git/${item.kind === 'dir' || item.kind === 'submodule' ? 'trees' : 'blobs'}/${item.sha}`;
  const html_url = !hostedHere
    ? null
    : `${base.origin}/${repository.owner}/${repository.name}/${item.kind === 'dir' ? 'tree' : 'blob'}/${encodeURIComponent(ref)}/${encodePath(item.path)}`;
  const download_url =
    item.kind === 'file' || item.kind === 'symlink'
      ? `${base.origin}${downloads.issue({ body: Buffer.from(item.kind === 'file' ? item.bytes : item.target), contentType: 'application/octet-stream', filename: nameOf(item.path) }, DOWNLOAD_TTL_MS)}`
      : null;
  return {
    type: item.kind,
    ...(withContent && item.kind === 'file' && { encoding: plain ? 'utf-8' : 'base64' }),
    size: sizeOf(item),
    name: nameOf(item.path),
    path: item.path,
    ...(withContent && item.kind === 'file' && { content: Buffer.from(item.bytes).toString(plain ? 'utf8' : 'base64') }),
    ...(item.kind === 'symlink' && { target: item.target }),
    ...(item.kind === 'submodule' && { submodule_git_url: item.url ?? null }),
    sha,
    url,
    git_url,
    html_url,
    download_url,
    _links: { self: url, git: git_url, html: html_url },
  };
}
