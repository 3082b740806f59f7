// The Repository summary of spec 2 (the repositories of a variable): identity, owner and
// the URL templates of the repository's API, all on the request's origin.
import type { Representer } from '../../representations.js';
import { fullName } from '../../directory.js';
import type { WorldRepository } from '../../world-model.js';

/** URL fields: the path after the repository's API URL, with its template part. */
const URL_FIELDS: Record<string, string> = {
  archive_url: '/{archive_format}{/ref}',
  assignees_url: '/assignees{/user}',
  blobs_url: '/git/blobs{/sha}',
  branches_url: '/branches{/branch}',
  collaborators_url: '/collaborators{/collaborator}',
  comments_url: '/comments{/number}',
  commits_url: '/commits{/sha}',
  compare_url: '/compare/{base}...{head}',
  contents_url: '/contents/{+path}',
  contributors_url: '/contributors',
  deployments_url: '/deployments',
  downloads_url: '/downloads',
  events_url: '/events',
  forks_url: '/forks',
  git_commits_url: '/git/commits{/sha}',
  git_refs_url: '/git/refs{/sha}',
  git_tags_url: '/git/tags{/sha}',
  issue_comment_url: '/issues/comments{/number}',
  issue_events_url: '/issues/events{/number}',
  issues_url: '/issues{/number}',
  keys_url: '/keys{/key_id}',
  labels_url: '/labels{/name}',
  languages_url: '/languages',
  merges_url: '/merges',
  milestones_url: '/milestones{/number}',
  notifications_url: '/notifications{?since,all,participating}',
  pulls_url: '/pulls{/number}',
  releases_url: '/releases{/id}',
  stargazers_url: '/stargazers',
  statuses_url: '/statuses/{sha}',
  subscribers_url: '/subscribers',
  subscription_url: '/subscription',
  tags_url: '/tags',
  teams_url: '/teams',
  trees_url: '/git/trees{/sha}',
  hooks_url: '/hooks',
};

export function repositorySummary(representer: Representer, repository: WorldRepository): Record<string, unknown> {
  const { origin } = representer;
  const url = `${origin}/repos/${fullName(repository)}`;
  // The git and ssh URLs name the host without the API's port (those protocols have their
  // own), which also keeps recordings of the reference the same whatever port it listens on.
  const host = new URL(origin).hostname;
  return {
    id: repository.id,
    node_id: representer.nodeId('Repository', repository.id),
    name: repository.name,
    full_name: fullName(repository),
    owner: representer.account(repository.owner),
    private: repository.private,
    html_url: `${origin}/${fullName(repository)}`,
    description: null,
    fork: false,
    url,
    ...Object.fromEntries(Object.entries(URL_FIELDS).map(([field, rest]) => [field, `${url}${rest}`])),
    git_url: `git://${host}/${fullName(repository)}.git`,
    ssh_url: `git@${host}:${fullName(repository)}.git`,
  };
}
