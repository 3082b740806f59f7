// The Blob resource (spec 1, Resources): `{content, encoding, url, sha, size, node_id}`;
// creation answers `{url, sha}` only.
//
// Decisions where the spec is silent:
// - `content` is Base64 with a line break after every 60 characters and at the end, as
//   real hosts write it (clients decode it with line breaks ignored).
// - `node_id` is the legacy global id of a blob: Base64 of `04:Blob<repository id>:<sha>`.
import type { Faults } from '../../faults.js';
import type { Representer } from '../../representations.js';
import type { WorldRepository } from '../../world-model.js';

export function blobUrl(base: Representer, repository: WorldRepository, sha: string): string {
  return `${base.origin}/repos/${repository.owner}/${repository.name}/git/blobs/${sha}`;
}

/** Base64 in lines of 60 characters, each ending with a line break. */
function wrappedBase64(bytes: Uint8Array): string {
  const text = Buffer.from(bytes).toString('base64');
  return text.length === 0 ? '' : `${text.match(/.{1,60}/g)?.join('\n')}\n`;
}

export function representBlob(base: Representer, faults: Faults, repository: WorldRepository, sha: string, bytes: Uint8Array) {
  const plain = faults.on('git.blob-content-plain');
  return {
    sha,
    node_id: Buffer.from(`04:Blob${repository.id}:${sha}`).toString('base64'),
    size: bytes.length,
    url: blobUrl(base, repository, sha),
    content: plain ? Buffer.from(bytes).toString('utf8') : wrappedBase64(bytes),
    encoding: plain ? 'utf-8' : 'base64',
  };
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The bytes of Base64 text (line breaks and spaces ignored), or undefined when it is not Base64. */
export function decodeBase64(text: string): Buffer | undefined {
  const compact = text.replace(/\s+/g, '');
  return compact.length % 4 === 0 && BASE64.test(compact) ? Buffer.from(compact, 'base64') : undefined;
}
