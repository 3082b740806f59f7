// The mutable part of issues: their assignees and when they last changed. Everything
// else about an issue is read from the world as it was loaded.
import type { Clock } from '../../clock.js';
import type { Directory } from '../../directory.js';
import type { WorldIssue, WorldRepository } from '../../world-model.js';

export const MAX_ASSIGNEES = 10;

export interface IssueRecord {
  readonly repository: WorldRepository;
  readonly issue: WorldIssue;
  /** Canonical logins, in the order they were assigned. */
  assignees: string[];
  updatedAt: number;
}

export interface IssueState {
  find(repository: WorldRepository, number: number): IssueRecord | undefined;
  /** Adds each login not yet assigned, in order, up to `cap` assignees (MAX_ASSIGNEES); true when anything changed. */
  addAssignees(record: IssueRecord, logins: string[], cap?: number): boolean;
  removeAssignees(record: IssueRecord, logins: string[]): boolean;
  reset(): void;
  /** Each issue's assignees and update time (the state digest's part). */
  snapshot(): unknown;
}

export function createIssueState(directory: Directory, clock: Clock): IssueState {
  const records = new Map<string, IssueRecord>();
  const key = (repository: WorldRepository, number: number) => `${repository.id}#${number}`;
  const touch = (record: IssueRecord) => {
    record.updatedAt = clock.now();
  };

  const state: IssueState = {
    find: (repository, number) => records.get(key(repository, number)),
    addAssignees(record, logins, cap = MAX_ASSIGNEES) {
      const before = record.assignees.length;
      for (const login of logins) {
        if (record.assignees.length >= cap) break;
        if (!record.assignees.includes(login)) record.assignees.push(login);
      }
      const changed = record.assignees.length !== before;
      if (changed) touch(record);
      return changed;
    },
    removeAssignees(record, logins) {
      const remaining = record.assignees.filter((login) => !logins.includes(login));
      const changed = remaining.length !== record.assignees.length;
      record.assignees = remaining;
      if (changed) touch(record);
      return changed;
    },
    snapshot: () => [...records].map(([id, record]) => [id, record.assignees, record.updatedAt]),
    reset() {
      records.clear();
      for (const { owner, name } of directory.world.repositories) {
        const repository = directory.repository(owner, name);
        if (repository === undefined) continue;
        for (const issue of repository.issues ?? []) {
          records.set(key(repository, issue.number), {
            repository,
            issue,
            assignees: [...(issue.assignees ?? [])],
            updatedAt: Date.parse(issue.created_at),
          });
        }
      }
    },
  };
  state.reset();
  return state;
}
