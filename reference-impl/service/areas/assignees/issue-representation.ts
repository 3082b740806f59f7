// The Issue resource as the assignee endpoints return it, with its labels and milestone.
import { fullName, type Directory } from '../../directory.js';
import type { Faults } from '../../faults.js';
import type { Representer } from '../../representations.js';
import { authorAssociation } from '../../repository-roles.js';
import type { Variants } from '../../variants.js';
import type { WorldLabel, WorldMilestone, WorldRepository } from '../../world-model.js';
import type { IssueRecord } from './issue-state.js';

export function representIssue(
  base: Representer,
  directory: Directory,
  { faults, variants }: { faults: Faults; variants: Variants },
  record: IssueRecord,
): Record<string, unknown> {
  const label = (repository: WorldRepository, entry: WorldLabel) => ({
    id: entry.id,
    node_id: base.nodeId('Label', entry.id),
    url: `${base.origin}/repos/${fullName(repository)}/labels/${encodeURIComponent(entry.name)}`,
    name: entry.name,
    description: entry.description ?? null,
    color: entry.color,
    default: entry.default ?? false,
  });

  const milestone = (repository: WorldRepository, entry: WorldMilestone) => {
    const issues = repository.issues ?? [];
    const createdAt = base.timestamp(Date.parse(directory.world.clock.start));
    return {
      url: `${base.origin}/repos/${fullName(repository)}/milestones/${entry.number}`,
      html_url: `${base.origin}/${fullName(repository)}/milestone/${entry.number}`,
      labels_url: `${base.origin}/repos/${fullName(repository)}/milestones/${entry.number}/labels`,
      id: entry.id,
      node_id: base.nodeId('Milestone', entry.id),
      number: entry.number,
      state: entry.state,
      title: entry.title,
      description: entry.description ?? null,
      creator: base.user(base.userByLogin(entry.creator)),
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

  const { repository, issue: entry } = record;
  const api = `${base.origin}/repos/${fullName(repository)}/issues/${entry.number}`;
  const html = `${base.origin}/${fullName(repository)}`;
  const assignees = record.assignees.map((login) => base.user(base.userByLogin(login)));
  const names = (entry.labels ?? []).map((name) => name.toLowerCase());
  const found = (repository.milestones ?? []).find((m) => m.number === entry.milestone);
  return {
    id: repository.id * 100_000 + entry.number,
    node_id: base.nodeId('Issue', repository.id * 100_000 + entry.number),
    url: api,
    repository_url: `${base.origin}/repos/${fullName(repository)}`,
    labels_url: `${api}/labels{/name}`,
    comments_url: `${api}/comments`,
    events_url: `${api}/events`,
    html_url: entry.pull_request ? `${html}/pull/${entry.number}` : `${html}/issues/${entry.number}`,
    number: entry.number,
    state: 'open',
    title: entry.title,
    body: entry.body ?? null,
    user: base.user(base.userByLogin(entry.user)),
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
            // The spec names the field only: the API address of the pull request, or (a variation) its web page.
            url: variants.on('assignees.pull-request-url-web')
              ? `${html}/pull/${entry.number}`
              : `${base.origin}/repos/${fullName(repository)}/pulls/${entry.number}`,
            html_url: `${html}/pull/${entry.number}`,
            diff_url: `${html}/pull/${entry.number}.diff`,
            patch_url: `${html}/pull/${entry.number}.patch`,
          },
        }
      : {}),
    closed_at: null,
    created_at: base.timestamp(Date.parse(entry.created_at)),
    updated_at: base.timestamp(record.updatedAt),
    closed_by: null,
    author_association: authorAssociation(directory, entry.user, repository),
    state_reason: null,
  };
}
