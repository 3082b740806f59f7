// The Content entry (spec 1, Resources): a file, a directory's listing entries, a symlink
// description or a submodule, with the URLs a client follows from it.
//
// Decisions where the spec is silent (README "Repository contents"):
// - `url` names the ref the entry was read at (`?ref=`), as real hosts do; `html_url` is
//   ORIGIN/OWNER/REPO/blob|tree/REF/PATH.
// - `download_url` (files and symlinks only) is a single-use link valid for five minutes of
//   the service clock (downloads.ts), a new one at each read.
// - A submodule is hosted here when its URL is relative (`../other.git`): git resolves it
//   against this repository's own URL, and so does the reference. Its `submodule_git_url`
//   is then that resolved URL on this origin, and `git_url`/`html_url` name the submodule's
//   repository at the recorded commit (as real hosts link them). An absolute URL is another
//   host's: `git_url`, `html_url` and their `_links` are null.
// - Files over 1 MiB (1,048,576 bytes: real hosts' "1 MB" is binary) come with the object
//   media type as `content: ""`, `encoding: "none"` (spec 1, rule 5 of the contents
//   endpoints); the endpoint refuses the other representations of them (endpoints.ts).
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

/** Files up to this size have every feature of the contents API; larger ones, raw and object only (spec 1, rule 5). */
export const FULL_FEATURES_MAX_BYTES = 1024 * 1024;

const sizeOf = (item: Located) => (item.kind === 'file' ? item.size : item.kind === 'symlink' ? Buffer.byteLength(item.target) : 0);

/** The repository a relative submodule URL names, resolved as git resolves it against `owner/repo.git`; undefined for another host's. */
export function hostedSubmodule(repository: WorldRepository, url: string | undefined): { owner: string; name: string } | undefined {
  if (url === undefined || !/^\.\.?\//.test(url)) return undefined;
  const segments = [repository.owner, `${repository.name}.git`];
  for (const segment of url.split('/')) {
    if (segment === '..') segments.pop();
    else if (segment !== '.' && segment !== '') segments.push(segment);
  }
  if (segments.length !== 2) return undefined;
  return { owner: segments[0], name: segments[1].replace(/\.git$/, '') };
}

/** The entry of `item`; with `withContent`, a file's bytes in Base64 too (none for files over 1 MiB). */
export async function representEntry(context: EntryContext, item: Located, withContent = false) {
  const { base, repository, ref, downloads, faults } = context;
  const plain = faults.on('contents.content-plain');
  const api = (owner: string, name: string) => `${base.origin}/repos/${owner}/${name}`;
  const url = `${api(repository.owner, repository.name)}/contents/${encodePath(item.path)}?ref=${encodeURIComponent(ref)}`;
  let sha = item.sha;
  let git_url: string | null = `${api(repository.owner, repository.name)}/git/${item.kind === 'dir' ? 'trees' : 'blobs'}/${item.sha}`;
  let html_url: string | null =
    `${base.origin}/${repository.owner}/${repository.name}/${item.kind === 'dir' ? 'tree' : 'blob'}/${encodeURIComponent(ref)}/${encodePath(item.path)}`;
  let submodule_git_url: string | null = null;
  if (item.kind === 'submodule') {
    const hosted = hostedSubmodule(repository, item.url);
    submodule_git_url = hosted ? `${base.origin}/${hosted.owner}/${hosted.name}.git` : (item.url ?? null);
    git_url = hosted ? `${api(hosted.owner, hosted.name)}/git/trees/${item.sha}` : null;
    html_url = hosted ? `${base.origin}/${hosted.owner}/${hosted.name}/tree/${item.sha}` : null;
  }
  let content: { encoding: string; content: string } | undefined;
  if (item.kind === 'file' && (withContent || faults.on('contents.sha-without-header'))) {
    const large = item.size > FULL_FEATURES_MAX_BYTES && !faults.on('contents.object-large-content');
    const bytes = large ? undefined : Buffer.from(await item.bytes());
    // The fault: a file's sha as the SHA-1 of its bytes alone, not Git's blob id.
    if (bytes && faults.on('contents.sha-without-header')) sha = createHash('sha1').update(bytes).digest('hex');
    content = bytes
      ? { encoding: plain ? 'utf-8' : 'base64', content: bytes.toString(plain ? 'utf8' : 'base64') }
      : { encoding: 'none', content: '' };
  }
  const download_url =
    item.kind === 'file' || item.kind === 'symlink'
      ? `${base.origin}${downloads.issue(
          {
            body: item.kind === 'file' ? async () => Buffer.from(await item.bytes()) : Buffer.from(item.target),
            contentType: 'application/octet-stream',
            filename: nameOf(item.path),
          },
          DOWNLOAD_TTL_MS,
        )}`
      : null;
  return {
    type: item.kind,
    ...(withContent && content && { encoding: content.encoding }),
    size: sizeOf(item),
    name: nameOf(item.path),
    path: item.path,
    ...(withContent && content && { content: content.content }),
    ...(item.kind === 'symlink' && { target: item.target }),
    ...(item.kind === 'submodule' && { submodule_git_url }),
    sha,
    url,
    git_url,
    html_url,
    download_url,
    _links: { self: url, git: git_url, html: html_url },
  };
}
