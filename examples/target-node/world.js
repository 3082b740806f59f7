// Loads a folder written by `touchstone world export` and keeps the state requests change.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isoInstant } from './representations.js';
import { providerOf } from './social-accounts.js';

const FORMAT = 'touchstone-world-export/1';

function readJson(dir, name) {
  const path = join(dir, name);
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`${path} is missing (${err.code}); is ${dir} a folder written by \`touchstone world export --out DIR\`?`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new Error(`${path} is not valid JSON: ${err.message}`);
  }
}

function need(cond, message) {
  if (!cond) throw new Error(message);
}

/** The parts of the world no request changes: accounts, repositories, tokens, and the initial clock. */
function parse(world, tokens) {
  need(world && world.format === FORMAT, `world.json has format ${JSON.stringify(world?.format)}, expected ${FORMAT}`);
  need(Array.isArray(world.users) && Array.isArray(world.organizations) && Array.isArray(world.repositories), 'world.json lacks users, organizations or repositories');
  need(Array.isArray(tokens), 'tokens.json must be a list of roles');
  const clockMs = Date.parse(world.clock?.start);
  need(!Number.isNaN(clockMs), 'world.json lacks clock.start');

  const users = new Map();
  const usersById = new Map();
  const addAccount = (a) => {
    users.set(a.login.toLowerCase(), a);
    usersById.set(a.id, a);
  };
  for (const u of world.users) addAccount({ id: u.id, login: u.login, type: 'User', social: u.social_accounts ?? [] });
  for (const o of world.organizations) addAccount({ id: o.id, login: o.login, type: 'Organization', social: [] });
  const idOf = (login) => {
    const a = users.get(String(login).toLowerCase());
    need(a, `world.json names an unknown account ${login}`);
    return a.id;
  };

  const orgs = new Map();
  for (const o of world.organizations) {
    orgs.set(o.login.toLowerCase(), {
      id: o.id,
      login: o.login,
      owners: new Set((o.owners ?? []).map(idOf)),
      variables: o.variables ?? [],
    });
  }
  const repos = new Map();
  for (const r of world.repositories) {
    repos.set(r.id, {
      id: r.id,
      name: r.name,
      ownerId: idOf(r.owner),
      private: Boolean(r.private),
      collaborators: new Set(Object.keys(r.collaborators ?? {}).map(idOf)),
    });
  }
  const repoIdByName = (orgId, name) => {
    const repo = [...repos.values()].find((r) => r.ownerId === orgId && r.name.toLowerCase() === name.toLowerCase());
    need(repo, `a variable selects an unknown repository ${name}`);
    return repo.id;
  };
  for (const org of orgs.values()) {
    org.variables = org.variables.map((v) => ({
      name: v.name,
      value: v.value,
      visibility: v.visibility,
      selected: (v.selected_repositories ?? []).map((n) => repoIdByName(org.id, n)).sort((a, b) => a - b),
      created_at: v.created_at,
      updated_at: v.updated_at ?? v.created_at,
    }));
  }

  const tokenMap = new Map();
  for (const t of tokens) {
    need(typeof t.value === 'string' && t.kind, `tokens.json: role ${t.role} lacks a value or kind`);
    tokenMap.set(t.value, {
      role: t.role,
      kind: t.kind,
      scopes: t.scopes ?? [],
      permissions: t.permissions ?? {},
      userId: t.user !== undefined ? idOf(t.user) : undefined,
      account: t.account,
    });
  }
  return { clockMs, users, usersById, orgs, repos, tokens: tokenMap };
}

/** A fresh copy of the state: the fixed parts shared, the changeable parts copied. */
function freshState(base) {
  const socialAccounts = new Map();
  for (const u of base.users.values()) {
    socialAccounts.set(u.login.toLowerCase(), u.social.map((url) => ({ provider: providerOf(url), url })));
  }
  const variables = new Map();
  for (const org of base.orgs.values()) {
    variables.set(org.id, new Map(org.variables.map((v) => [v.name.toLowerCase(), { ...v, selected: [...v.selected] }])));
  }
  return { ...base, socialAccounts, variables };
}

/** The store: `state` (replaced on reset), `reset()`, and `now()` read from the state's clock. */
export function loadWorld(dir) {
  const base = parse(readJson(dir, 'world.json'), readJson(dir, 'tokens.json'));
  const store = {
    state: freshState(base),
    reset() {
      store.state = freshState(base);
    },
    now() {
      return isoInstant(store.state.clockMs);
    },
  };
  return store;
}
