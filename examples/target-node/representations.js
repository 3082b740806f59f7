// JSON representations shared by the areas: User (spec 1) and Repository summary (spec 2).

/** An instant as ISO 8601 in UTC, without milliseconds when they are zero. */
export function isoInstant(ms) {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

function nodeId(kind, id) {
  return Buffer.from(`${kind}:${id}`).toString('base64').replace(/=+$/, '');
}

export function userJson(base, user) {
  const url = `${base}/users/${user.login}`;
  return {
    login: user.login,
    id: user.id,
    node_id: user.node_id ?? nodeId(user.type ?? 'User', user.id),
    avatar_url: `${base}/avatars/u/${user.id}`,
    gravatar_id: '',
    url,
    html_url: `${base}/${user.login}`,
    followers_url: `${url}/followers`,
    following_url: `${url}/following{/other_user}`,
    gists_url: `${url}/gists{/gist_id}`,
    starred_url: `${url}/starred{/owner}{/repo}`,
    subscriptions_url: `${url}/subscriptions`,
    organizations_url: `${url}/orgs`,
    repos_url: `${url}/repos`,
    events_url: `${url}/events{/privacy}`,
    received_events_url: `${url}/received_events`,
    type: user.type ?? 'User',
    site_admin: Boolean(user.site_admin),
  };
}

// Repository summary URL fields: [field, path below the repository URL].
const REPO_URLS = [
  ['archive_url', '/{archive_format}{/ref}'], ['assignees_url', '/assignees{/user}'],
  ['blobs_url', '/git/blobs{/sha}'], ['branches_url', '/branches{/branch}'],
  ['collaborators_url', '/collaborators{/collaborator}'], ['comments_url', '/comments{/number}'],
  ['commits_url', '/commits{/sha}'], ['compare_url', '/compare/{base}...{head}'],
  ['contents_url', '/contents/{+path}'], ['contributors_url', '/contributors'],
  ['deployments_url', '/deployments'], ['downloads_url', '/downloads'], ['events_url', '/events'],
  ['forks_url', '/forks'], ['git_commits_url', '/git/commits{/sha}'], ['git_refs_url', '/git/refs{/sha}'],
  ['git_tags_url', '/git/tags{/sha}'], ['issue_comment_url', '/issues/comments{/number}'],
  ['issue_events_url', '/issues/events{/number}'], ['issues_url', '/issues{/number}'],
  ['keys_url', '/keys{/key_id}'], ['labels_url', '/labels{/name}'], ['languages_url', '/languages'],
  ['merges_url', '/merges'], ['milestones_url', '/milestones{/number}'],
  ['notifications_url', '/notifications{?since,all,participating}'], ['pulls_url', '/pulls{/number}'],
  ['releases_url', '/releases{/id}'], ['stargazers_url', '/stargazers'], ['statuses_url', '/statuses/{sha}'],
  ['subscribers_url', '/subscribers'], ['subscription_url', '/subscription'], ['tags_url', '/tags'],
  ['teams_url', '/teams'], ['trees_url', '/git/trees{/sha}'], ['hooks_url', '/hooks'],
];

export function repoSummary(state, base, repo) {
  const owner = state.usersById.get(repo.ownerId);
  const fullName = `${owner.login}/${repo.name}`;
  const url = `${base}/repos/${fullName}`;
  const host = new URL(base).host;
  const out = {
    id: repo.id,
    node_id: repo.node_id ?? nodeId('Repository', repo.id),
    name: repo.name,
    full_name: fullName,
    owner: userJson(base, owner),
    private: Boolean(repo.private),
    html_url: `${base}/${fullName}`,
    description: repo.description ?? null,
    fork: Boolean(repo.fork),
    url,
  };
  for (const [field, tail] of REPO_URLS) out[field] = url + tail;
  out.git_url = `git://${host}/${fullName}.git`;
  out.ssh_url = `git@${host}:${fullName}.git`;
  return out;
}
