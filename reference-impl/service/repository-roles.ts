// Who may do what on a repository, derived from the world: the owner and the owning
// organization's owners are admin, collaborators have their listed permission, and
// organization members who are not collaborators may read public repositories.
import type { Directory } from './directory.js';
import type { Permission, WorldRepository, WorldUser } from './world-model.js';

const ORDER: readonly Permission[] = ['read', 'triage', 'write', 'maintain', 'admin'];

export function atLeast(role: Permission | null, minimum: Permission): boolean {
  return role !== null && ORDER.indexOf(role) >= ORDER.indexOf(minimum);
}

export function roleOf(
  directory: Directory,
  login: string,
  repository: WorldRepository,
  org = directory.organization(repository.owner),
): Permission | null {
  if (repository.owner === login) return 'admin';
  if (org?.owners.includes(login)) return 'admin';
  const collaborator = repository.collaborators[login];
  if (collaborator !== undefined) return collaborator;
  if (org?.members?.includes(login) && !repository.private) return 'read';
  return null;
}

// Roles come from the world, which no request changes (no endpoint adds a collaborator or a
// member), so who has push access to a repository is worked out once per repository, not by
// a scan of every user on every request. A repository object belongs to one directory.
const pushers = new WeakMap<WorldRepository, readonly WorldUser[]>();

/** Users with push access (write or more), organization owners included, by id. */
export function assignableUsers(directory: Directory, repository: WorldRepository): readonly WorldUser[] {
  let users = pushers.get(repository);
  if (users === undefined) {
    const org = directory.organization(repository.owner);
    users = Object.freeze(directory.users.filter((user) => atLeast(roleOf(directory, user.login, repository, org), 'write')));
    pushers.set(repository, users);
  }
  return users;
}

export type AuthorAssociation = 'OWNER' | 'MEMBER' | 'COLLABORATOR' | 'NONE';

export function authorAssociation(directory: Directory, login: string, repository: WorldRepository): AuthorAssociation {
  const org = directory.organization(repository.owner);
  if (repository.owner === login || org?.owners.includes(login)) return 'OWNER';
  if (org?.members?.includes(login)) return 'MEMBER';
  if (repository.collaborators[login] !== undefined) return 'COLLABORATOR';
  return 'NONE';
}
