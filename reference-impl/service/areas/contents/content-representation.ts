// The Content entry (spec 1, Resources): a file, a directory's listing entries, a symlink
// description or a submodule, with the URLs a client follows from it.
//
// Decisions where the spec is silent (README "Repository contents"):
// - `url` names the ref the entry was read at (`?ref=`), as real hosts do; `html_url` is
//   ORIGIN/OWNER/REPO/blob|tree/REF/PATH.
// - `download_url` (files and symlinks only) is a single-use link valid for five minutes of
//   the service clock (downloads.ts), a new one at each read ("expire" has no lifetime in the
//   spec). Variation contents.download-url-long-lived: seven days.
// - A symlink is described (rule 3: "an object describing the symlink", no fields given) as
//   real hosts do: `type: symlink`, its own path, its text as `target`. Variation
//   contents.symlink-described-as-link: `type: link` and `link_target`.
// - A submodule read on its own is typed `submodule` (the spec names only file and dir, and
//   file for a listing). Variation contents.submodule-typed-file: `file` there too.
// - A submodule is hosted here when its URL is relative (`../other.git`): git resolves it
//   against this repository's own URL, and so does the reference. Its `submodule_git_url`
//   is then that resolved URL on this origin, and `git_url`/`html_url` name the submodule's
//   repository's tree at the recorded commit (as real hosts link them). An absolute URL is
//   another host's: `git_url`, `html_url` and their `_links` are null. Variations:
//   contents.submodule-url-as-recorded gives the URL as .gitmodules records it;
//   contents.submodule-links-to-commit links the recorded commit (git/commits/SHA, /commit/SHA)
//   rather than its tree.
// - Files over 1 MB (size-limits.ts: 1 MiB, real hosts' "1 MB" is binary) come with the
//   object media type as `content: ""`, `encoding: "none"` (spec 1, rule 5 of the contents
//   endpoints); the endpoint refuses the other representations of them (endpoints.ts).
import { createHash } from 'node:crypto';
import type { Downloads } from '../../downloads.js';
import type { Faults } from '../../faults.js';
import type { Representer } from '../../representations.js';
import type { Variants } from '../../variants.js';
import type { WorldRepository } from '../../world-model.js';
import type { SizeLimits } from './size-limits.js';
import type { Located } from './tree-reader.js';

export const DOWNLOAD_TTL_MS = 5 * 60 * 1000;
/** The lifetime of a download_url with the variation contents.download-url-long-lived. */
export const LONG_DOWNLOAD_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface EntryContext {
  base: Representer;
  faults: Faults;
  variants: Variants;
  limits: SizeLimits;
  repository: WorldRepository;
  ref: string;
  downloads: Downloads;
}

const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');
const nameOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);

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

/** The entry of `item`; with `withContent`, a file's bytes in Base64 too (none for files over 1 MB). */
export async function representEntry(context: EntryContext, item: Located, withContent = false) {
  const { base, repository, ref, downloads, faults, variants, limits } = context;
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
    const asRecorded = variants.on('contents.submodule-url-as-recorded');
    submodule_git_url = hosted && !asRecorded ? `${base.origin}/${hosted.owner}/${hosted.name}.git` : (item.url ?? null);
    const toCommit = variants.on('contents.submodule-links-to-commit');
    git_url = hosted ? `${api(hosted.owner, hosted.name)}/git/${toCommit ? 'commits' : 'trees'}/${item.sha}` : null;
    html_url = hosted ? `${base.origin}/${hosted.owner}/${hosted.name}/${toCommit ? 'commit' : 'tree'}/${item.sha}` : null;
  }
  let content: { encoding: string; content: string } | undefined;
  if (item.kind === 'file' && (withContent || faults.on('contents.sha-without-header'))) {
    const inline = faults.on('contents.object-large-content') || faults.on('contents.large-content-inline');
    const large = limits.isLarge(item.size) && !inline;
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
          variants.on('contents.download-url-long-lived') ? LONG_DOWNLOAD_TTL_MS : DOWNLOAD_TTL_MS,
        )}`
      : null;
  // A symlink read on its own is described; in a listing it is an entry like the others.
  const linkAsLink = item.kind === 'symlink' && withContent && variants.on('contents.symlink-described-as-link');
  return {
    type: typeOf(item, variants, linkAsLink),
    ...(withContent && content && { encoding: content.encoding }),
    size: sizeOf(item),
    name: nameOf(item.path),
    path: item.path,
    ...(withContent && content && { content: content.content }),
    ...(item.kind === 'symlink' && (linkAsLink ? { link_target: item.target } : { target: item.target })),
    ...(item.kind === 'submodule' && { submodule_git_url }),
    sha,
    url,
    git_url,
    html_url,
    download_url,
    _links: { self: url, git: git_url, html: html_url },
  };
}

/** The entry's `type`: its kind, but for the choices the spec leaves open (a submodule read alone, a symlink's description). */
function typeOf(item: Located, variants: Variants, linkAsLink: boolean): string {
  if (item.kind === 'submodule' && variants.on('contents.submodule-typed-file')) return 'file';
  if (linkAsLink) return 'link';
  return item.kind;
}
