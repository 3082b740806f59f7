// The commit of a Commit result (spec 1, Resources: create, update or delete a file).
//
// Decisions where the spec is silent:
// - `node_id` is the legacy global id of a commit: Base64 of `06:Commit<repository id>:<sha>`.
// - `verification` is always unsigned: the reference does not sign the commits it makes.
// - `message` is the caller's, as given (Git stores it with a final line feed).
import { formatTimestamp } from '../../clock.js';
import type { CommitObject, Signature } from '../../git/object-store.js';
import type { Representer } from '../../representations.js';
import type { WorldRepository } from '../../world-model.js';

const person = (s: Signature) => ({ name: s.name, email: s.email, date: formatTimestamp(s.timestamp * 1000) });

export function representCommit(base: Representer, repository: WorldRepository, sha: string, commit: CommitObject) {
  const api = `${base.origin}/repos/${repository.owner}/${repository.name}/git`;
  const html = (oid: string) => `${base.origin}/${repository.owner}/${repository.name}/commit/${oid}`;
  return {
    sha,
    node_id: Buffer.from(`06:Commit${repository.id}:${sha}`).toString('base64'),
    url: `${api}/commits/${sha}`,
    html_url: html(sha),
    author: person(commit.author),
    committer: person(commit.committer),
    message: commit.message,
    tree: { url: `${api}/trees/${commit.tree}`, sha: commit.tree },
    parents: commit.parents.map((parent) => ({ url: `${api}/commits/${parent}`, html_url: html(parent), sha: parent })),
    verification: { verified: false, reason: 'unsigned', signature: null, payload: null, verified_at: null },
  };
}
