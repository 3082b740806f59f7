import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { WorldError } from './errors.js';
import { DEFAULT_WORLD_PATH, loadWorld, parseWorld } from './world-loader.js';

const text = readFileSync(DEFAULT_WORLD_PATH, 'utf8');

/** The world with one textual change, which must be present. */
function variant(from: string, to: string): string {
  expect(text).toContain(from);
  return text.replace(from, to);
}

function expectWorldError(source: string, pattern: RegExp) {
  let error: unknown;
  try {
    parseWorld(source, 'bad-world.yaml');
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(WorldError);
  expect((error as WorldError).code).toBe('WORLD_INVALID');
  expect((error as WorldError).message).toMatch(/^bad-world\.yaml(:\d+:\d+)?: /);
  expect((error as WorldError).message).toMatch(pattern);
}

test('DEFAULT_WORLD_PATH points at suites/world.yaml', () => {
  expect(DEFAULT_WORLD_PATH).toMatch(/suites[\\/]world\.yaml$/);
});

test('the default world loads, with the user series expanded', () => {
  const world = loadWorld();
  const series = world.users.filter((user) => user.login.startsWith('dev-'));
  expect(series).toHaveLength(105);
  expect(series[0]).toEqual({ login: 'dev-001', id: 1001 });
  expect(series[104]).toEqual({ login: 'dev-105', id: 1105 });
  expect(world.source).toBe(DEFAULT_WORLD_PATH);
});

test('collaborator globs resolve to every matching user; explicit entries stay', () => {
  const crowd = loadWorld().repositories.find((repository) => repository.name === 'crowd')!;
  expect(Object.keys(crowd.collaborators)).toHaveLength(106);
  expect(crowd.collaborators['dev-042']).toBe('write');
  expect(crowd.collaborators.monalisa).toBe('admin');
  expect(crowd.collaborators['dev-*']).toBeUndefined();
});

test('an unreadable file names the path', () => {
  expect(() => loadWorld('/nonexistent/world.yaml')).toThrow(/\/nonexistent\/world\.yaml: cannot read/);
});

test('invalid YAML names the file', () => {
  expectWorldError('users: [', /^bad-world\.yaml:1:9: not valid YAML/);
});

test('a schema violation names the JSON path', () => {
  expectWorldError(variant('{ login: hubot, id: 2 }', '{ login: hubot, id: -2 }'), /\/users\/1\/id/);
  // The position is the value's: its line and column in the file.
  const bad = variant('{ login: hubot, id: 2 }', '{ login: hubot, id: -2 }');
  const before = bad.slice(0, bad.indexOf('id: -2') + 'id: '.length).split('\n');
  expectWorldError(bad, new RegExp(`line ${before.length}:${before.at(-1)!.length + 1}: /users/1/id must be >= 1`));
  expectWorldError(variant('private: true', 'private: "yes"'), /\/repositories\/1\/private/);
  expectWorldError(
    variant('collaborators:\n      monalisa: admin\n      wanstrath', 'collaborators:\n      monalisa: boss\n      wanstrath'),
    /\/repositories\/0\/collaborators\/monalisa/,
  );
});

test('an unknown collaborator login names the path', () => {
  expectWorldError(
    variant('mojombo: read\n    labels', 'nobody: read\n    labels'),
    /\/repositories\/0\/collaborators\/nobody: unknown user "nobody"/,
  );
});

test('a collaborator glob matching nobody is an error', () => {
  expectWorldError(variant('"dev-*": write', '"ops-*": write'), /\/repositories\/2\/collaborators\/ops-\*: the glob matches no user/);
});

test('unknown logins in issues, organizations and tokens name their paths', () => {
  expectWorldError(
    variant('user: mojombo, created_at', 'user: ghost, created_at'),
    /\/repositories\/0\/issues\/0\/user: unknown user "ghost"/,
  );
  expectWorldError(variant('assignees: [defunkt], labels', 'assignees: [ghost], labels'), /\/repositories\/0\/issues\/1\/assignees\/0/);
  expectWorldError(variant('owners: [hubot]', 'owners: [ghost]'), /\/organizations\/0\/owners\/0: unknown user "ghost"/);
  expectWorldError(variant('user: pjhyett, kind', 'user: ghost, kind'), /\/tokens\/5\/user: unknown user "ghost"/);
  expectWorldError(
    variant('repositories: [octo-org/crowd]', 'repositories: [octo-org/none]'),
    /\/tokens\/15\/repositories\/0: unknown repository/,
  );
  expectWorldError(variant('repository: octo-org/widgets', 'repository: octo-org/none'), /\/tokens\/20\/repository/);
});

test('unknown labels and milestones of issues, unknown repository owners', () => {
  expectWorldError(variant('labels: [bug]', 'labels: [feature]'), /\/repositories\/0\/issues\/1\/labels\/0: unknown label "feature"/);
  expectWorldError(
    variant('milestone: 1, created_at', 'milestone: 7, created_at'),
    /\/repositories\/0\/issues\/1\/milestone: unknown milestone 7/,
  );
  expectWorldError(variant('owner: sheriff', 'owner: nobody'), /\/repositories\/4\/owner: unknown account "nobody"/);
});

test('git content: parents must be earlier commits, refs must name commits, the default branch must be a branch', () => {
  expectWorldError(
    variant('parents: [first]\n          changes:\n            README.md', 'parents: [later]\n          changes:\n            README.md'),
    /\/repositories\/0\/git\/commits\/1\/parents\/0: "later" is not an earlier commit/,
  );
  expectWorldError(
    variant('experiment: experiment }', 'experiment: nothing }'),
    /\/repositories\/0\/git\/branches\/experiment: unknown commit "nothing"/,
  );
  expectWorldError(
    variant('default_branch: main\n      commits:', 'default_branch: trunk\n      commits:'),
    /\/git\/default_branch: "trunk" is not one of the branches/,
  );
  expectWorldError(variant('author: defunkt', 'author: nobody'), /\/git\/commits\/1\/author: unknown user "nobody"/);
  expectWorldError(variant('outside-link: {', '../outside-link: {'), /\/git\/commits\/1\/changes/);
});

test('assistant seats, nested teams and enterprises: each reference checked, each problem named by its path', () => {
  expectWorldError(
    variant('{ user: wanstrath, created_at', '{ user: octocat, created_at'),
    /\/organizations\/0\/assistant\/seats\/4: "octocat" is neither a member of octo-org nor invited/,
  );
  expectWorldError(
    variant('{ user: wanstrath, created_at', '{ user: hubot, created_at'),
    /\/organizations\/0\/assistant\/seats\/4: "hubot" holds two seats/,
  );
  expectWorldError(
    variant('{ user: defunkt, team: core', '{ user: defunkt, team: frontend-web'),
    /seats\/2\/team: "defunkt" is not a member of team "frontend-web"/,
  );
  expectWorldError(variant('parent: frontend,', 'parent: backend,'), /\/organizations\/0\/teams\/2\/parent: unknown team "backend"/);
  expectWorldError(
    variant('{ slug: frontend, name: Frontend, id: 201,', '{ slug: frontend, name: Frontend, id: 201, parent: frontend-web,'),
    /teams nested in a cycle/,
  );
  expectWorldError(
    variant('organizations: [octo-org, octo-labs]', 'organizations: [octo-org, octo-lab]'),
    /\/enterprises\/0\/organizations\/1: unknown organization "octo-lab"/,
  );
  expectWorldError(
    variant('organizations: [asst-enterprise-metrics-off]', 'organizations: [octo-org]'),
    /"octo-org" belongs to two enterprises/,
  );
  expectWorldError(
    variant('members: [dev-*, octocat', 'members: [ops-*, octocat'),
    /\/organizations\/1\/members\/0: the glob matches no user/,
  );
});

test('duplicates are errors', () => {
  expectWorldError(variant('{ login: bigboss, id: 9 }', '{ login: octocat, id: 9 }'), /duplicate login "octocat"/);
  expectWorldError(variant('{ login: bigboss, id: 9 }', '{ login: bigboss, id: 1 }'), /duplicate account id 1/);
  expectWorldError(variant('name: vault', 'name: widgets'), /\/repositories\/1\/name: duplicate repository/);
  expectWorldError(variant('role: repo-writer', 'role: repo-admin'), /\/tokens\/3\/role: duplicate role "repo-admin"/);
});

test('a former name that names another repository of its owner, now or before, is refused', () => {
  expectWorldError(
    variant('former_names: [gadgets]', 'former_names: [vault]'),
    /former_names\/0: "octo-org\/vault" names another repository/,
  );
  expectWorldError(
    variant('former_names: [gadgets]', 'former_names: [gadgets, Gadgets]'),
    /former_names\/1: "octo-org\/Gadgets" names another repository/,
  );
});

test('environments: names unique per repository (any case), rules only of apps available for them; app ids and slugs unique', () => {
  expectWorldError(variant('- { name: staging }', '- { name: Production }'), /environments\/1\/name: duplicate environment "Production"/);
  expectWorldError(
    variant('- { name: staging }', '- { name: staging, protection_rules: [7003] }'),
    /environments\/1\/protection_rules\/0: app 7003 is not an app available for protection rules/,
  );
  expectWorldError(variant('slug: linter-bot', 'slug: gatekeeper'), /duplicate app id 7003 or slug "gatekeeper"/);
});

test('workflow runs and artifacts: ids unique across the world, those a series makes included', () => {
  expectWorldError(variant('- { id: 60002, name: coverage', '- { id: 60001, name: coverage'), /artifacts\/1: duplicate artifact id 60001/);
  expectWorldError(variant('first_id: 61001', 'first_id: 60004'), /duplicate artifact id 60004/);
  expectWorldError(variant('      - id: 50002\n', '      - id: 50001\n'), /workflow_runs\/1\/id: duplicate workflow run id 50001/);
});
