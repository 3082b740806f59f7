// The checks of `touchstone target check`: a checklist of what a run needs of a target, each
// line with its fix. The preflight first (service-target.ts: it answers, like the service);
// then each declared capability exercised harmlessly; each token tried as its role; the world
// spot-checked; and, per suite, the roles and capabilities still missing.
//
// Decisions where the issue is silent:
// - The world is checked against the reference itself: the same requests go to the target
//   (with the tokens file's tokens) and to an embedded reference (with the world's), and the
//   fields that are the world's data (logins and ids, Git object ids, variable values,
//   repository ids) must agree. Nothing of the world is restated here.
// - A token's identity: the spec has no "who am I" endpoint. GET /user/social_accounts lists the
//   caller's own accounts, which differ between octocat and everyone else in the world: a
//   token refused (401) or answering with another user's accounts than the reference gives for
//   the same role is named. Identity is otherwise not provable, and the line says so.
// - Only what would make a run's verdict wrong blocks (exit 1): a declared capability that
//   does not work, a token refused or of another user, world data that disagrees. Missing
//   roles and capabilities are listed (their cases SKIP, and the run says so).
// - The key rotation changes state: it is exercised only when a reset can undo it.
import { CONTROL_ROUTES, type Capability, CAPABILITIES } from '../../lib/control-contract.js';
import { HarnessError } from '../core/errors.js';
import { createAjv } from '../core/validated-file.js';
import type { RequestSpec, Suite } from '../core/suite-format.js';
import { createHttpTransport, headerValue, type Transport } from '../http/transport.js';
import { caseRoles } from '../suite/case-facts.js';
import { ANONYMOUS } from '../http/target-client.js';
import { isJsonMediaType } from '../secrets/json-field-scrubber.js';
import { preflight, serviceClient, SERVICE_PROBE } from './service-target.js';

export type Mark = 'ok' | 'warn' | 'fail' | 'skip';
export interface CheckLine {
  mark: Mark;
  text: string;
  fix?: string;
}

interface Answer {
  status: number;
  type?: string;
  json?: unknown;
}

/** Requests of the service to a base URL as the roles of `tokens`, each answer's JSON read when it is JSON. */
function asker(send: Transport, base: string, tokens: Record<string, string>) {
  const client = serviceClient(base, send, tokens);
  return async (
    method: 'GET' | 'POST',
    path: string,
    role = ANONYMOUS,
    more: Pick<RequestSpec, 'body' | 'query'> = {},
  ): Promise<Answer> => {
    const { response } = await client.send({ method, path, ...more }, role);
    const type = headerValue(response.headers, 'content-type');
    let json: unknown;
    if (type !== undefined && isJsonMediaType(type))
      try {
        json = JSON.parse(response.body.toString('utf8'));
      } catch {
        // not JSON after all: compared as absent
      }
    return { status: response.status, type, json };
  };
}

/** World data a request shows, as sorted text lines: what the target and the reference must agree on. */
interface SpotCheck {
  suite: string;
  what: string;
  path: string;
  query?: Record<string, number>;
  role: string;
  project(json: unknown): string[];
}

const list = (json: unknown, field?: string): Record<string, unknown>[] => {
  const items = field ? (json as Record<string, unknown> | undefined)?.[field] : json;
  return Array.isArray(items) ? (items as Record<string, unknown>[]) : [];
};

const SPOT_CHECKS: SpotCheck[] = [
  {
    suite: 'social-accounts',
    what: "a user's social accounts",
    path: '/users/octocat/social_accounts',
    role: ANONYMOUS,
    project: (json) => list(json).map((a) => String(a.url)),
  },
  {
    suite: 'assignees',
    what: 'users and their ids (the assignees of octo-org/widgets)',
    path: '/repos/octo-org/widgets/assignees',
    query: { per_page: 100 },
    role: 'repo-admin',
    project: (json) => list(json).map((u) => `${u.login} ${u.id}`),
  },
  {
    suite: 'artifacts',
    what: 'artifacts and their repository ids',
    path: '/repos/octo-org/widgets/actions/artifacts',
    query: { per_page: 5 },
    role: 'repo-admin',
    project: (json) =>
      list(json, 'artifacts').map((a) => `${a.id} ${a.name} ${(a.workflow_run as Record<string, unknown> | undefined)?.repository_id}`),
  },
  {
    suite: 'contents',
    what: 'Git object ids (the root of octo-org/widgets)',
    path: '/repos/octo-org/widgets/contents/',
    role: 'repo-admin',
    project: (json) => list(json).map((e) => `${e.path} ${e.sha}`),
  },
  {
    suite: 'variables',
    what: "an organization's variables",
    path: '/orgs/octo-org/actions/variables',
    query: { per_page: 100 },
    role: 'org-owner',
    project: (json) => list(json, 'variables').map((v) => `${v.name}=${v.value}`),
  },
];

const sorted = (lines: string[]) => [...lines].sort();
const differ = (a: string[], b: string[]) => JSON.stringify(sorted(a)) !== JSON.stringify(sorted(b));

export interface CheckInput {
  target: string;
  /** role -> token of the target (the tokens file); empty without --tokens. */
  tokens: Record<string, string>;
  /** The suites in question: their world data is spot-checked, their missing roles and capabilities listed. Loaded once the target answers (a wrong target is told at once). */
  suites: () => Suite[];
  /** Starts the reference (its base URL and the world's tokens): the oracle of the world checks, started once the target answers. */
  reference: () => Promise<{ url: string; tokens: Record<string, string> }>;
}

export async function checkTarget(input: CheckInput, print: (line: CheckLine) => void): Promise<CheckLine[]> {
  const lines: CheckLine[] = [];
  const say = (line: CheckLine) => {
    lines.push(line);
    print(line);
  };
  const transport = createHttpTransport({ timeoutMs: 10_000 });
  try {
    const found = await preflight(input.target, { send: transport.send }).catch((error: unknown) => {
      if (!(error instanceof HarnessError)) throw error;
      say({
        mark: 'fail',
        text: error.message,
        fix: 'start the target, and give the base URL every path of the spec goes under (not a web server, another port or a path prefix)',
      });
      return undefined;
    });
    if (!found) return lines;
    say({ mark: 'ok', text: `answers like the service (GET ${SERVICE_PROBE} is JSON)` });
    for (const warning of found.warnings) say({ mark: 'warn', text: warning });
    const target = asker(transport.send, input.target, input.tokens);
    await checkCapabilities(found.capabilities, target, say);
    const oracle = await input.reference();
    const reference = asker(transport.send, oracle.url, oracle.tokens);
    const suites = input.suites();
    await checkTokens(input.tokens, target, reference, say);
    // Only the world data of the suites in question: a target of two areas has no Git objects to show.
    const spots = SPOT_CHECKS.filter((spot) => suites.some((suite) => suite.name === spot.suite));
    await checkWorld(spots, input.tokens, target, reference, say);
    listMissing(suites, input.tokens, found.capabilities, say);
    return lines;
  } finally {
    transport.close();
  }
}

type Ask = ReturnType<typeof asker>;
type Say = (line: CheckLine) => void;

async function checkCapabilities(capabilities: Set<string>, target: Ask, say: Say): Promise<void> {
  const ajv = createAjv({ strict: false });
  const exercise = async (method: 'GET' | 'POST', path: string, body?: RequestSpec['body']): Promise<string | undefined> => {
    const route = CONTROL_ROUTES.find((r) => r.method === method && r.path === path)!;
    const answer = await target(method, path, ANONYMOUS, { body });
    if (answer.status !== route.status) return `${method} ${path} answered ${answer.status}, not ${route.status}`;
    if (!route.answer) return undefined;
    const validate = ajv.compile(JSON.parse(JSON.stringify(route.answer)));
    return validate(answer.json) ? undefined : `${method} ${path} answered ${ajv.errorsText(validate.errors)}`;
  };
  const declared = CAPABILITIES.filter((c) => capabilities.has(c));
  say({ mark: 'ok', text: `capabilities: ${declared.length > 0 ? declared.join(', ') : 'none declared'}` });
  const trials: Record<Capability, () => Promise<string | undefined>> = {
    'control.reset': () => exercise('POST', '/_conformance/reset'),
    'control.clock': async () =>
      (await exercise('GET', '/_conformance/clock')) ?? exercise('POST', '/_conformance/clock', { advance_seconds: 0 }),
    'control.failures': () => exercise('GET', '/_conformance/failures'),
    'control.state': () => exercise('GET', '/_conformance/state'),
    'control.faults': () => exercise('GET', '/_conformance/faults'),
    'control.variants': () => exercise('GET', '/_conformance/variants'),
    'control.key-rotation': async () =>
      capabilities.has('control.reset')
        ? ((await exercise('POST', '/_conformance/secret-keys/rotate', { repository: 'octo-org/widgets' })) ??
          exercise('POST', '/_conformance/reset'))
        : undefined,
  };
  for (const capability of declared) {
    const problem = await trials[capability]();
    if (problem)
      say({
        mark: 'fail',
        text: `${capability}: ${problem}`,
        fix: `serve it as docs/target-contract.md says, or leave ${capability} out of the capabilities`,
      });
    else if (capability === 'control.key-rotation' && !capabilities.has('control.reset'))
      say({ mark: 'skip', text: `${capability}: not tried (it changes the state, and the target has no control.reset to undo it)` });
    else say({ mark: 'ok', text: `${capability} works` });
  }
}

type Tokens = Record<string, string>;

async function checkTokens(tokens: Tokens, target: Ask, reference: Ask, say: Say): Promise<void> {
  const roles = Object.keys(tokens);
  if (roles.length === 0) {
    say({
      mark: 'warn',
      text: 'no tokens file: every case acting as a role will SKIP',
      fix: 'write one with `touchstone tokens template`, then pass --tokens FILE',
    });
    return;
  }
  const byValue = new Map<string, string[]>();
  for (const [role, token] of Object.entries(tokens)) byValue.set(token, [...(byValue.get(token) ?? []), role]);
  for (const shared of byValue.values())
    if (shared.length > 1) say({ mark: 'warn', text: `roles ${shared.join(', ')} have the same token: the target cannot tell them apart` });
  const refused: string[] = [];
  const others: string[] = [];
  for (const role of roles) {
    const [got, expected] = await Promise.all([
      target('GET', '/user/social_accounts', role),
      reference('GET', '/user/social_accounts', role),
    ]);
    if (got.status === 401 && expected.status !== 401) refused.push(role);
    else if (
      got.status === 200 &&
      expected.status === 200 &&
      differ(
        list(got.json).map((a) => String(a.url)),
        list(expected.json).map((a) => String(a.url)),
      )
    )
      others.push(role);
  }
  if (refused.length > 0)
    say({
      mark: 'fail',
      text: `tokens refused (401 on GET /user/social_accounts): ${refused.join(', ')}`,
      fix: 'issue these tokens in the target, for the users `touchstone tokens template` names',
    });
  if (others.length > 0)
    say({
      mark: 'fail',
      text: `tokens answering as another user than the world says (their own social accounts differ): ${others.join(', ')}`,
      fix: 'map each role to a token of the user `touchstone tokens template` names',
    });
  if (refused.length + others.length === 0)
    say({
      mark: 'ok',
      text: `${roles.length} tokens accepted (none answers as another user, as far as GET /user/social_accounts can tell)`,
    });
}

async function checkWorld(spots: SpotCheck[], tokens: Tokens, target: Ask, reference: Ask, say: Say): Promise<void> {
  for (const spot of spots) {
    if (spot.role !== ANONYMOUS && !(spot.role in tokens)) {
      say({ mark: 'skip', text: `world: ${spot.what}: not checked (no token for role ${spot.role})` });
      continue;
    }
    const [got, expected] = await Promise.all([
      target('GET', spot.path, spot.role, { query: spot.query }),
      reference('GET', spot.path, spot.role, { query: spot.query }),
    ]);
    if (got.status === 401 && expected.status !== 401) {
      say({ mark: 'skip', text: `world: ${spot.what}: not checked (the ${spot.role} token is refused)` });
      continue;
    }
    const want = spot.project(expected.json);
    const have = spot.project(got.json);
    if (got.status !== expected.status || differ(have, want)) {
      const missing = sorted(want).filter((line) => !have.includes(line));
      say({
        mark: 'fail',
        text: `world: ${spot.what}: GET ${spot.path} as ${spot.role} answered ${got.status}${missing.length > 0 ? `, without ${missing.slice(0, 3).join('; ')}${missing.length > 3 ? ' …' : ''}` : ', with other data'}`,
        fix: `load the world (\`touchstone world export\`) into the target; the ${spot.suite} cases rely on it`,
      });
    } else say({ mark: 'ok', text: `world: ${spot.what}` });
  }
}

function listMissing(suites: Suite[], tokens: Tokens, capabilities: Set<string>, say: Say): void {
  for (const suite of suites) {
    const roles = new Set<string>();
    const needs = new Set<string>();
    let skipping = 0;
    for (const testCase of suite.cases) {
      const lacking = caseRoles(testCase).filter((role) => role !== ANONYMOUS && !(role in tokens));
      const without = (testCase.requires ?? []).filter((c) => !capabilities.has(c));
      for (const role of lacking) roles.add(role);
      for (const capability of without) needs.add(capability);
      if (lacking.length + without.length > 0) skipping++;
    }
    if (skipping === 0) {
      say({ mark: 'ok', text: `${suite.name}: all ${suite.cases.length} cases can run` });
      continue;
    }
    const what = [
      roles.size > 0 && `no token for ${[...roles].sort().join(', ')}`,
      needs.size > 0 && `no ${[...needs].sort().join(', ')}`,
    ].filter(Boolean);
    say({
      mark: 'warn',
      text: `${suite.name}: ${skipping} of ${suite.cases.length} cases will SKIP or lose auth-matrix rows (${what.join('; ')})`,
      fix: roles.size > 0 ? 'map those roles in the tokens file' : 'serve those capabilities (docs/target-contract.md)',
    });
  }
}
