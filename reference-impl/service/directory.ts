// Read-only lookups over the world: accounts, repositories and tokens by name, case-
// insensitively (the spec's names are), always answering with the canonical spelling.
import type { World, WorldEnterprise, WorldOrganization, WorldRepository, WorldToken, WorldUser } from './world-model.js';

export interface Directory {
  readonly world: World;
  /** Every user, ordered by id. */
  readonly users: readonly WorldUser[];
  user(login: string): WorldUser | undefined;
  organization(login: string): WorldOrganization | undefined;
  /** The enterprise an organization belongs to, if any. */
  enterpriseOf(organization: string): WorldEnterprise | undefined;
  repository(owner: string, name: string): WorldRepository | undefined;
  /** The repository that was called `owner/name` before it was renamed. */
  renamed(owner: string, name: string): WorldRepository | undefined;
  repositoriesOwnedBy(login: string): WorldRepository[];
  token(value: string): WorldToken | undefined;
}

export function fullName(repository: WorldRepository): string {
  return `${repository.owner}/${repository.name}`;
}

export function createDirectory(world: World): Directory {
  const users = new Map(world.users.map((user) => [user.login.toLowerCase(), user]));
  const canonical = (login: string) => users.get(login.toLowerCase())?.login ?? login;
  const organizations = new Map(
    world.organizations.map((org) => [
      org.login.toLowerCase(),
      {
        ...org,
        owners: org.owners.map(canonical),
        members: (org.members ?? []).map(canonical),
        invitations: (org.invitations ?? []).map(canonical),
        teams: (org.teams ?? []).map((team) => ({ ...team, members: (team.members ?? []).map(canonical) })),
      },
    ]),
  );
  const accountLogin = (login: string) => organizations.get(login.toLowerCase())?.login ?? canonical(login);
  const repositories = new Map(
    world.repositories.map((repository) => {
      const normalized: WorldRepository = {
        ...repository,
        owner: accountLogin(repository.owner),
        milestones: (repository.milestones ?? []).map((milestone) => ({ ...milestone, creator: canonical(milestone.creator) })),
        issues: (repository.issues ?? []).map((issue) => ({
          ...issue,
          user: canonical(issue.user),
          assignees: (issue.assignees ?? []).map(canonical),
        })),
      };
      return [fullName(normalized).toLowerCase(), normalized];
    }),
  );
  const tokens = new Map(
    world.tokens.map((token) => [
      token.value,
      {
        ...token,
        user: token.user === undefined ? undefined : canonical(token.user),
        account: token.account === undefined ? undefined : accountLogin(token.account),
      },
    ]),
  );
  const enterprises = new Map(
    world.enterprises.flatMap((enterprise) => {
      const normalized = {
        ...enterprise,
        owners: enterprise.owners.map(canonical),
        billing_managers: enterprise.billing_managers.map(canonical),
      };
      return enterprise.organizations.map((org) => [org.toLowerCase(), normalized] as const);
    }),
  );
  const sortedUsers = [...world.users].sort((a, b) => a.id - b.id);
  const formerNames = new Map(
    [...repositories.values()].flatMap((r) => (r.former_names ?? []).map((name) => [`${r.owner}/${name}`.toLowerCase(), r] as const)),
  );

  return {
    world,
    users: sortedUsers,
    user: (login) => users.get(login.toLowerCase()),
    organization: (login) => organizations.get(login.toLowerCase()),
    enterpriseOf: (organization) => enterprises.get(organization.toLowerCase()),
    repository: (owner, name) => repositories.get(`${owner}/${name}`.toLowerCase()),
    renamed: (owner, name) => formerNames.get(`${owner}/${name}`.toLowerCase()),
    repositoriesOwnedBy: (login) => [...repositories.values()].filter((r) => r.owner.toLowerCase() === login.toLowerCase()),
    token: (value) => tokens.get(value),
  };
}
