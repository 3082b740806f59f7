// JSON shapes of the resources this slice returns, with every URL absolute on the
// request's origin. API URLs live under ORIGIN/users, ORIGIN/repos …; "html" URLs
// directly under ORIGIN, as on the real service where both share one host here.
import type { FastifyRequest } from 'fastify';
import { formatTimestamp } from './clock.js';
import { fullName, type Directory } from './directory.js';
import type { Faults } from './faults.js';
import type { ActiveLimit } from './interaction-limit-state.js';
import type { IssueRecord } from './issue-state.js';
import { authorAssociation } from './repository-roles.js';
import { requestOrigin } from './request-origin.js';
import type { WorldLabel, WorldMilestone, WorldRepository, WorldUser } from './world-model.js';

export interface Representer {
  user(user: WorldUser): Record<string, unknown>;
  issue(record: IssueRecord): Record<string, unknown>;
  interactionLimit(limit: ActiveLimit | null): Record<string, unknown> | null;
}

const OFFSET_MS = 2 * 3_600_000;

/** The same instant in UTC+02:00 rather than UTC: the representations.timestamps-local-offset fault. */
function withLocalOffset(epochMs: number): string {
  return formatTimestamp(epochMs + OFFSET_MS).replace(/Z$/, '+02:00');
}

/** The representer for one request: URLs on its origin, and the service's faults. */
export function representerFor(request: FastifyRequest, directory: Directory): Representer {
  return createRepresenter(requestOrigin(request), directory, request.faults);
}

/** The legacy global node id: base64 of "0<length of type>:<Type><id>". */
function nodeId(type: string, id: number): string {
  return Buffer.from(`0${type.length}:${type}${id}`).toString('base64');
}

export function createRepresenter(origin: string, directory: Directory, faults: Faults): Representer {
  const timestamp = (epochMs: number) => (faults.on('representations.timestamps-local-offset') ? withLocalOffset(epochMs) : formatTimestamp(epochMs));
  const userByLogin = (login: string): WorldUser => {
    const user = directory.user(login);
    // The world loader checked every login it holds; reaching this is our bug.
    if (user === undefined) throw new Error(`representations: unknown user ${login}`);
    return user;
  };

  const user = ({ login, id }: WorldUser) => {
    const api = `${origin}/users/${login}`;
    return {
      login,
      id,
      ...(!faults.on('representations.user-without-node-id') && { node_id: nodeId('User', id) }),
      avatar_url: `${origin}/avatars/u/${id}?v=4`,
      gravatar_id: '',
      url: api,
      html_url: `${origin}/${login}`,
      followers_url: `${api}/followers`,
      following_url: `${api}/following{/other_user}`,
      gists_url: `${api}/gists{/gist_id}`,
      starred_url: `${api}/starred{/owner}{/repo}`,
      subscriptions_url: `${api}/subscriptions`,
      organizations_url: `${api}/orgs`,
      repos_url: `${api}/repos`,
      events_url: `${api}/events{/privacy}`,
      received_events_url: `${api}/received_events`,
      type: 'User',
      site_admin: false,
    };
  };

  const label = (repository: WorldRepository, entry: WorldLabel) => ({
    id: entry.id,
    node_id: nodeId('Label', entry.id),
    url: `${origin}/repos/${fullName(repository)}/labels/${encodeURIComponent(entry.name)}`,
    name: entry.name,
    description: entry.description ?? null,
    color: entry.color,
    default: entry.default ?? false,
  });

  const milestone = (repository: WorldRepository, entry: WorldMilestone) => {
    const issues = repository.issues ?? [];
    const createdAt = timestamp(Date.parse(directory.world.clock.start));
    return {
      url: `${origin}/repos/${fullName(repository)}/milestones/${entry.number}`,
      html_url: `${origin}/${fullName(repository)}/milestone/${entry.number}`,
      labels_url: `${origin}/repos/${fullName(repository)}/milestones/${entry.number}/labels`,
      id: entry.id,
      node_id: nodeId('Milestone', entry.id),
      number: entry.number,
      state: entry.state,
      title: entry.title,
      description: entry.description ?? null,
      creator: user(userByLogin(entry.creator)),
      // Every issue of the world is open (the only state the spec shows).
      open_issues: issues.filter((issue) => issue.milestone === entry.number).length,
      closed_issues: 0,
      // The world gives milestones no creation time; the world's start is the one deterministic choice.
      created_at: createdAt,
      updated_at: createdAt,
      closed_at: null,
      due_on: entry.due_on ?? null,
    };
  };

  const issue = (record: IssueRecord) => {
    const { repository, issue: entry } = record;
    const api = `${origin}/repos/${fullName(repository)}/issues/${entry.number}`;
    const html = `${origin}/${fullName(repository)}`;
    const assignees = record.assignees.map((login) => user(userByLogin(login)));
    const names = (entry.labels ?? []).map((name) => name.toLowerCase());
    const found = (repository.milestones ?? []).find((m) => m.number === entry.milestone);
    return {
      id: repository.id * 100_000 + entry.number,
      node_id: nodeId('Issue', repository.id * 100_000 + entry.number),
      url: api,
      repository_url: `${origin}/repos/${fullName(repository)}`,
      labels_url: `${api}/labels{/name}`,
      comments_url: `${api}/comments`,
      events_url: `${api}/events`,
      html_url: entry.pull_request ? `${html}/pull/${entry.number}` : `${html}/issues/${entry.number}`,
      number: entry.number,
      state: 'open',
      title: entry.title,
      body: entry.body ?? null,
      user: user(userByLogin(entry.user)),
      labels: (repository.labels ?? []).filter((l) => names.includes(l.name.toLowerCase())).map((l) => label(repository, l)),
      assignee: assignees[0] ?? null,
      assignees,
      milestone: found ? milestone(repository, found) : null,
      ...(!faults.on('representations.issue-without-locked') && { locked: false }),
      active_lock_reason: null,
      comments: 0,
      ...(entry.pull_request && !faults.on('representations.pull-request-link-missing')
        ? {
            pull_request: {
              url: `${origin}/repos/${fullName(repository)}/pulls/${entry.number}`,
              html_url: `${html}/pull/${entry.number}`,
              diff_url: `${html}/pull/${entry.number}.diff`,
              patch_url: `${html}/pull/${entry.number}.patch`,
            },
          }
        : {}),
      closed_at: null,
      created_at: timestamp(Date.parse(entry.created_at)),
      updated_at: timestamp(record.updatedAt),
      closed_by: null,
      author_association: authorAssociation(directory, entry.user, repository),
      state_reason: null,
    };
  };

  const interactionLimit = (limit: ActiveLimit | null) => {
    if (limit === null) return faults.on('representations.limit-none-as-null') ? null : {};
    return {
      limit: limit.limit,
      ...(!faults.on('representations.limit-without-origin') && { origin: limit.origin }),
      expires_at: timestamp(limit.expiresAt),
    };
  };

  return { user, issue, interactionLimit };
}
