// Cross-reference checks the JSON Schema cannot express: every login, repository,
// label and milestone a world names must exist, and identities must be unique.
import { worldProblem } from './world-expansion.js';
import type { World } from './world-model.js';

export function checkReferences(world: World): void {
  const { source } = world;
  const users = new Set<string>();
  const accounts = new Set<string>();
  const accountIds = new Set<number>();
  const claimAccount = (pointer: (string | number)[], login: string, id: number) => {
    if (accounts.has(login.toLowerCase())) throw worldProblem(source, pointer, `duplicate login "${login}"`);
    if (accountIds.has(id)) throw worldProblem(source, pointer, `duplicate account id ${id}`);
    accounts.add(login.toLowerCase());
    accountIds.add(id);
  };
  world.users.forEach((user) => {
    claimAccount(['users'], user.login, user.id);
    users.add(user.login.toLowerCase());
  });
  world.organizations.forEach((org, index) => claimAccount(['organizations', index, 'login'], org.login, org.id));

  const requireUser = (pointer: (string | number)[], login: string) => {
    if (!users.has(login.toLowerCase())) throw worldProblem(source, pointer, `unknown user "${login}"`);
  };
  world.organizations.forEach((org, o) => {
    org.owners.forEach((login, i) => requireUser(['organizations', o, 'owners', i], login));
    (org.members ?? []).forEach((login, i) => requireUser(['organizations', o, 'members', i], login));
    (org.invitations ?? []).forEach((login, i) => requireUser(['organizations', o, 'invitations', i], login));
    const teams = new Map((org.teams ?? []).map((team) => [team.slug, team]));
    (org.teams ?? []).forEach((team, t) => {
      (team.members ?? []).forEach((login, i) => requireUser(['organizations', o, 'teams', t, 'members', i], login));
      const seen = new Set([team.slug]);
      for (let parent = team.parent; parent !== undefined; parent = teams.get(parent)?.parent) {
        if (!teams.has(parent)) throw worldProblem(source, ['organizations', o, 'teams', t, 'parent'], `unknown team "${parent}"`);
        if (seen.has(parent)) throw worldProblem(source, ['organizations', o, 'teams', t, 'parent'], 'teams nested in a cycle');
        seen.add(parent);
      }
    });
    // Seats: one per user, held by a member or an invitee, through a team the user is in.
    const people = new Set([...org.owners, ...(org.members ?? []), ...(org.invitations ?? [])].map((login) => login.toLowerCase()));
    const seated = new Set<string>();
    (org.assistant?.seats ?? []).forEach((seat, i) => {
      const at = ['organizations', o, 'assistant', 'seats', i];
      const login = seat.user.toLowerCase();
      if (!people.has(login)) throw worldProblem(source, at, `"${seat.user}" is neither a member of ${org.login} nor invited`);
      if (seated.has(login)) throw worldProblem(source, at, `"${seat.user}" holds two seats`);
      seated.add(login);
      const team = seat.team === undefined ? undefined : teams.get(seat.team);
      if (seat.team !== undefined && !team?.members?.some((member) => member.toLowerCase() === login))
        throw worldProblem(source, [...at, 'team'], `"${seat.user}" is not a member of team "${seat.team}"`);
    });
  });
  // Variables: names unique (any case) per organization; selected repositories are the organization's, only with visibility selected.
  world.organizations.forEach((org, o) => {
    const names = new Set<string>();
    (org.variables ?? []).forEach((variable, v) => {
      const at = ['organizations', o, 'variables', v];
      const listed =
        'series' in variable
          ? Array.from({ length: variable.series.count }, (_, i) => variable.series.name.replace('{n}', String(i + 1).padStart(3, '0')))
          : [variable.name];
      for (const name of listed) {
        if (names.has(name.toUpperCase())) throw worldProblem(source, at, `duplicate variable "${name}"`);
        names.add(name.toUpperCase());
      }
      if ('series' in variable) return;
      if ((variable.selected_repositories !== undefined) !== (variable.visibility === 'selected'))
        throw worldProblem(source, at, 'selected_repositories go with visibility selected, and only with it');
      for (const name of variable.selected_repositories ?? [])
        if (
          !world.repositories.some((r) => r.owner.toLowerCase() === org.login.toLowerCase() && r.name.toLowerCase() === name.toLowerCase())
        )
          throw worldProblem(source, [...at, 'selected_repositories'], `"${name}" is not a repository of ${org.login}`);
    });
  });
  const enterpriseOf = new Set<string>();
  world.enterprises.forEach((enterprise, e) => {
    [...enterprise.owners, ...enterprise.billing_managers].forEach((login) => requireUser(['enterprises', e], login));
    enterprise.organizations.forEach((login, i) => {
      const at = ['enterprises', e, 'organizations', i];
      if (!world.organizations.some((org) => org.login.toLowerCase() === login.toLowerCase()))
        throw worldProblem(source, at, `unknown organization "${login}"`);
      if (enterpriseOf.has(login.toLowerCase())) throw worldProblem(source, at, `"${login}" belongs to two enterprises`);
      enterpriseOf.add(login.toLowerCase());
    });
  });

  // Apps: unique ids and slugs; an environment's rules name apps available for them.
  const ruleApps = new Set<number>();
  const appSlugs = new Set<string>();
  const appIds = new Set<number>();
  world.apps.forEach((app) => {
    if (appIds.has(app.id) || appSlugs.has(app.slug))
      throw worldProblem(source, ['apps'], `duplicate app id ${app.id} or slug "${app.slug}"`);
    appIds.add(app.id);
    appSlugs.add(app.slug);
    if (app.protection_rules) ruleApps.add(app.id);
  });

  const repositories = new Set<string>();
  const repositoryIds = new Set<number>();
  // Workflow runs and artifacts: ids unique across the world (a series claims each id it makes).
  const runIds = new Set<number>();
  const artifactIds = new Set<number>();
  world.repositories.forEach((repository, r) => {
    const at = (...rest: (string | number)[]) => ['repositories', r, ...rest];
    if (!accounts.has(repository.owner.toLowerCase())) throw worldProblem(source, at('owner'), `unknown account "${repository.owner}"`);
    const key = `${repository.owner}/${repository.name}`.toLowerCase();
    if (repositories.has(key)) throw worldProblem(source, at('name'), `duplicate repository "${repository.owner}/${repository.name}"`);
    if (repositoryIds.has(repository.id)) throw worldProblem(source, at('id'), `duplicate repository id ${repository.id}`);
    repositories.add(key);
    repositoryIds.add(repository.id);

    const labels = new Set<string>();
    (repository.labels ?? []).forEach((label, i) => {
      if (labels.has(label.name.toLowerCase())) throw worldProblem(source, at('labels', i, 'name'), `duplicate label "${label.name}"`);
      labels.add(label.name.toLowerCase());
    });
    const milestones = new Set<number>();
    (repository.milestones ?? []).forEach((milestone, i) => {
      if (milestones.has(milestone.number))
        throw worldProblem(source, at('milestones', i, 'number'), `duplicate milestone number ${milestone.number}`);
      milestones.add(milestone.number);
      requireUser(at('milestones', i, 'creator'), milestone.creator);
    });
    (repository.workflow_runs ?? []).forEach((run, w) => {
      if (runIds.has(run.id)) throw worldProblem(source, at('workflow_runs', w, 'id'), `duplicate workflow run id ${run.id}`);
      runIds.add(run.id);
      run.artifacts.forEach((artifact, a) => {
        const ids =
          'series' in artifact ? Array.from({ length: artifact.series.count }, (_, i) => artifact.series.first_id + i) : [artifact.id];
        for (const id of ids) {
          if (artifactIds.has(id)) throw worldProblem(source, at('workflow_runs', w, 'artifacts', a), `duplicate artifact id ${id}`);
          artifactIds.add(id);
        }
      });
    });
    const environments = new Set<string>();
    (repository.environments ?? []).forEach((environment, e) => {
      if (environments.has(environment.name.toLowerCase()))
        throw worldProblem(source, at('environments', e, 'name'), `duplicate environment "${environment.name}"`);
      environments.add(environment.name.toLowerCase());
      (environment.protection_rules ?? []).forEach((id, i) => {
        if (!ruleApps.has(id))
          throw worldProblem(
            source,
            at('environments', e, 'protection_rules', i),
            `app ${id} is not an app available for protection rules`,
          );
      });
    });
    if (repository.git) checkGit(repository.git, at, (pointer, login) => requireUser(pointer, login), source);
    const numbers = new Set<number>();
    (repository.issues ?? []).forEach((issue, i) => {
      if (numbers.has(issue.number)) throw worldProblem(source, at('issues', i, 'number'), `duplicate issue number ${issue.number}`);
      numbers.add(issue.number);
      requireUser(at('issues', i, 'user'), issue.user);
      (issue.assignees ?? []).forEach((login, a) => requireUser(at('issues', i, 'assignees', a), login));
      (issue.labels ?? []).forEach((name, l) => {
        if (!labels.has(name.toLowerCase())) throw worldProblem(source, at('issues', i, 'labels', l), `unknown label "${name}"`);
      });
      if (issue.milestone !== undefined && !milestones.has(issue.milestone)) {
        throw worldProblem(source, at('issues', i, 'milestone'), `unknown milestone ${issue.milestone}`);
      }
    });
  });

  // A former name redirects: it must name no repository of its owner, now or before.
  const formerNames = new Set<string>();
  world.repositories.forEach((repository, r) =>
    (repository.former_names ?? []).forEach((name, i) => {
      const key = `${repository.owner}/${name}`.toLowerCase();
      if (repositories.has(key) || formerNames.has(key))
        throw worldProblem(source, ['repositories', r, 'former_names', i], `"${repository.owner}/${name}" names another repository`);
      formerNames.add(key);
    }),
  );

  const requireRepository = (pointer: (string | number)[], fullName: string) => {
    if (!repositories.has(fullName.toLowerCase())) throw worldProblem(source, pointer, `unknown repository "${fullName}"`);
  };
  const roles = new Set<string>();
  const values = new Set<string>();
  world.tokens.forEach((token, t) => {
    if (roles.has(token.role)) throw worldProblem(source, ['tokens', t, 'role'], `duplicate role "${token.role}"`);
    if (values.has(token.value)) throw worldProblem(source, ['tokens', t, 'value'], 'duplicate token value');
    roles.add(token.role);
    values.add(token.value);
    if (token.user !== undefined) requireUser(['tokens', t, 'user'], token.user);
    if (token.account !== undefined && !accounts.has(token.account.toLowerCase())) {
      throw worldProblem(source, ['tokens', t, 'account'], `unknown account "${token.account}"`);
    }
    if (token.repository !== undefined) requireRepository(['tokens', t, 'repository'], token.repository);
    if (Array.isArray(token.repositories)) {
      token.repositories.forEach((fullName, i) => requireRepository(['tokens', t, 'repositories', i], fullName));
    }
  });
}

/** Commit ids unique, parents earlier in the list, refs naming commits, the default branch a branch, authors users. */
function checkGit(
  git: NonNullable<World['repositories'][number]['git']>,
  at: (...rest: (string | number)[]) => (string | number)[],
  requireUser: (pointer: (string | number)[], login: string) => void,
  source: string,
): void {
  const seen = new Set<string>();
  git.commits.forEach((commit, c) => {
    if (seen.has(commit.id)) throw worldProblem(source, at('git', 'commits', c, 'id'), `duplicate commit id "${commit.id}"`);
    (commit.parents ?? []).forEach((parent, p) => {
      if (!seen.has(parent)) throw worldProblem(source, at('git', 'commits', c, 'parents', p), `"${parent}" is not an earlier commit`);
    });
    requireUser(at('git', 'commits', c, 'author'), commit.author);
    seen.add(commit.id);
  });
  for (const kind of ['branches', 'tags'] as const)
    for (const [name, id] of Object.entries(git[kind] ?? {}))
      if (!seen.has(id)) throw worldProblem(source, at('git', kind, name), `unknown commit "${id}"`);
  // An empty repository (no commits) has a default branch that does not exist yet.
  if (git.commits.length > 0 && !(git.default_branch in git.branches))
    throw worldProblem(source, at('git', 'default_branch'), `"${git.default_branch}" is not one of the branches`);
}
