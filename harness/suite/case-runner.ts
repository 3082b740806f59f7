// Runs one declarative case against a target and decides its outcome. It knows nothing
// of Playwright: the caller passes hooks for steps and attachments, so the same code runs
// inside `touchstone run`, `touchstone mutate` and in-process in the negative-control tests.
//
// Decisions where the brief is silent:
// - A broken SHOULD or MAY (a WARN) does not stop the case: its later checks, MUST ones
//   included, still run, so a target that misses a recommendation is not left untested
//   on what it must do. Only a step whose values later steps capture stops there.
// - A broken MUST (a FAIL) stops a steps case; what it did not get to check is `unverified`.
// - An auth matrix runs every row whose role has a token, even after a row breaks: each
//   row is independent, and an implementer fixing their access rules needs every broken
//   row at once, not one per run. Each row is reported with its role and what its token
//   is. The rows that could not run are named, and the case is SKIP only when none ran. A
//   matrix that ran only some rows passes, but does not count as checking its requirements
//   (unverified): the rows left out may be the very ones that would have failed.
// - Every broken check is listed (`failures`, one message line each), never summed up.
// - A request that gets no answer (refused, reset, DNS, a timeout) FAILs the case citing its
//   step's requirement; a control API call that gets none is ERROR (case-bounds.ts).
// - A steps case needs every role it acts as and every capability it requires; without
//   one it is SKIP, naming all that is missing.
import { ConformanceFailure, HarnessError, isRecordingMiss } from '../core/errors.js';
import { createRedactor, showingTarget, toCurl, toExchangeRecord, withSecrets, type Redactor } from '../http/exchange-record.js';
import { checkExpectation, expectStatus, statusRuleText } from '../http/expectations.js';
import { walkPagination } from '../http/pagination-walk.js';
import type { SchemaRegistry } from '../http/schema-registry.js';
import { ANONYMOUS, createTargetClient, type Exchange, type TargetClient } from '../http/target-client.js';
import { createTargetControl, type TargetControl } from '../http/target-control.js';
import type { Transport } from '../http/transport.js';
import type { ExchangeRecord, FailureDetail, MatrixRow } from '../core/results.js';
import { caseRequirements, caseRoles, caseSupportRoles, excludedTexts, isParallelStep, isRequestStep } from './case-facts.js';
import { brokenOutcome as brokenChecks, isSoft, type CaseOutcome, type Grading } from '../core/case-outcome.js';
import { answerOrFail, caseDeadline, NoAnswer } from './case-bounds.js';
import { interpolate, type Bindings } from './interpolate.js';
import type { RequirementRegistry } from '../core/requirement-registry.js';
import type { Case, LimitsCase, ParallelStep, RequestSpec, RequestStep } from '../core/suite-format.js';

export interface CaseHooks {
  step<T>(title: string, body: () => Promise<T>): Promise<T>;
  attach(name: string, record: ExchangeRecord): Promise<void>;
}

/**
 * Hooks that show nothing: what `touchstone run` and the kill matrix run cases with. Decision:
 * the run engine no longer makes each request a Playwright step with its exchange attached.
 * Only the conformance reporter reads a run's tests, and it reads the outcome alone (a failure
 * carries its own exchange), so no user ever saw them; they cost half a worker's time (Playwright
 * takes a source-mapped stack trace per step, and every attachment crosses to the runner).
 */
export const SILENT_HOOKS: CaseHooks = { step: (_title, body) => body(), attach: async () => {} };

/** What a service run knows of its target, from which every case's context is made. */
export interface ServiceTarget {
  url: string;
  /** What reports show for `url` when it is the record/replay proxy's (RunConfig reportedUrls). */
  reportedUrl?: string;
  tokens: Record<string, string>;
  send: Transport;
  capabilities: ReadonlySet<string>;
  registry: RequirementRegistry;
  strict: boolean;
  /** What each role's token is (world-tokens.ts readWorldRoles), for the rows of an auth matrix. */
  roles?: ReadonlyMap<string, string>;
  /**
   * The compiled schemas of suites/schemas, built once for all the target's cases (a build takes
   * ~125 ms; once built per case, they were half a run's time).
   */
  schemas: SchemaRegistry;
  /** Each case's bound (--case-timeout): its requests still waiting then fail (case-bounds.ts). None: no bound. */
  caseTimeoutMs?: number;
}

export const USER_AGENT = 'touchstone-conformance/0.1';

/** The context cases run in against `target`, with the given hooks (Playwright's, or none). */
export function createCaseContext(target: ServiceTarget, hooks: CaseHooks): CaseContext {
  return {
    client: createTargetClient({ baseUrl: target.url, tokens: target.tokens, transport: target.send, userAgent: USER_AGENT }),
    control: createTargetControl(target.url, target.send, USER_AGENT),
    capabilities: target.capabilities,
    schemas: target.schemas,
    registry: target.registry,
    redact: showingTarget(createRedactor(Object.values(target.tokens)), target.url, target.reportedUrl ?? target.url),
    strict: target.strict,
    roles: target.roles ?? new Map(),
    hooks,
    caseTimeoutMs: target.caseTimeoutMs,
  };
}

export interface CaseContext {
  client: TargetClient;
  control: TargetControl;
  capabilities: ReadonlySet<string>;
  schemas: SchemaRegistry;
  registry: RequirementRegistry;
  redact: Redactor;
  strict: boolean;
  roles: ReadonlyMap<string, string>;
  hooks: CaseHooks;
  caseTimeoutMs?: number;
}

/** A broken check, the exchange that showed it and the role that sent it; `hard` when it fails the case (a MUST). */
interface Found {
  error: ConformanceFailure;
  hard: boolean;
  exchange?: Exchange;
  endpoint?: string;
  role?: string;
}

export async function runCase(testCase: Case, shared: CaseContext): Promise<CaseOutcome> {
  // The case's own secrets (texts its expectations exclude, messages it seals, the boxes
  // sealed) never reach a report: attachments, failures and errors show <redacted>.
  const secrets = new Set(excludedTexts(testCase));
  const deadline = caseDeadline(shared.client, shared.control, shared.caseTimeoutMs);
  try {
    const redact = withSecrets(shared.redact, secrets);
    return await runBounded(testCase, { ...shared, client: deadline.client, control: deadline.control, redact }, secrets);
  } finally {
    deadline.end();
  }
}

async function runBounded(testCase: Case, context: CaseContext, secrets: Set<string>): Promise<CaseOutcome> {
  const requirements = caseRequirements(testCase);
  const missingCapabilities = (testCase.requires ?? []).filter((c) => !context.capabilities.has(c));
  if (missingCapabilities.length > 0) {
    return {
      outcome: 'SKIP',
      message: `the target lacks capability ${missingCapabilities.join(', ')}`,
      missing: { capabilities: missingCapabilities },
    };
  }
  const rowRoles = testCase.kind === 'auth-matrix' ? Object.keys(testCase.expect_by_role) : [];
  const missingRoles = caseRoles(testCase).filter((role) => !context.client.hasRole(role));
  const missingRows = missingRoles.filter((role) => rowRoles.includes(role));
  const supportRoles = caseSupportRoles(testCase);
  const neededRoles = missingRoles.filter((role) => supportRoles.includes(role));
  if (neededRoles.length > 0 || (rowRoles.length > 0 && missingRows.length === rowRoles.length)) {
    return {
      outcome: 'SKIP',
      message: `no token for role ${missingRoles.join(', ')} (map ${missingRoles.length === 1 ? 'it' : 'them'} with --tokens)`,
      missing: { roles: missingRoles },
    };
  }

  const grading: Grading = { registry: context.registry, strict: context.strict };
  const role = testCase.as ?? ANONYMOUS;
  let last: Exchange | undefined;
  let lastEndpoint: string | undefined;
  let lastRole: string | undefined;
  const found: Found[] = [];
  const record = (error: ConformanceFailure): Found => ({
    error,
    hard: !isSoft(error, grading),
    exchange: last,
    endpoint: lastEndpoint,
    role: lastRole,
  });
  /** Records a broken check; throws one that fails the case unless `goOn` (an auth matrix's row). */
  const note = (error: ConformanceFailure, goOn = false): Found => {
    const broken = record(error);
    if (broken.hard && !goOn) throw error;
    found.push(broken);
    return broken;
  };
  const send = async (spec: RequestSpec, as = role, requirement = testCase.requirements[0]): Promise<Exchange> => {
    const target = `${spec.method} ${spec.path ?? spec.url}`;
    const title = `${target} as ${spec.as ?? as}`;
    return context.hooks.step(title, async () => {
      last = undefined;
      lastEndpoint = target;
      lastRole = spec.as ?? as;
      const exchange = await answerOrFail(context.client.send(spec, as), requirement);
      last = exchange;
      await context.hooks.attach(
        `${title} → ${exchange.response.status}`,
        toExchangeRecord(exchange.request, exchange.response, context.redact),
      );
      return exchange;
    });
  };
  const sendAll = (specs: RequestSpec[], requirement: string) =>
    context.hooks.step(`${specs.length} requests at once: ${specs[0].method} ${specs[0].path ?? specs[0].url}`, async () => {
      last = undefined;
      lastEndpoint = `${specs[0].method} ${specs[0].path ?? specs[0].url}`;
      lastRole = role;
      const exchanges = await answerOrFail(Promise.all(specs.map((spec) => context.client.send(spec, role))), requirement);
      last = exchanges.at(-1);
      for (const [n, exchange] of exchanges.entries())
        await context.hooks.attach(
          `#${n + 1} → ${exchange.response.status}`,
          toExchangeRecord(exchange.request, exchange.response, context.redact),
        );
      return exchanges.map((exchange) => exchange.response.status);
    });
  const bindings: Bindings = { values: {}, secrets };
  const runRequestStep = async (step: RequestStep, b: Bindings, as = role) => {
    const requirement = step.requirement ?? testCase.requirements[0];
    const exchange = await send(await interpolate(step.request, b), as, requirement);
    try {
      Object.assign(
        b.values,
        await checkExpectation(exchange.response, await interpolate(step.expect, b), {
          requirement,
          schemas: context.schemas,
        }),
      );
    } catch (error) {
      // Later steps may need this step's captures, which a failed check never took.
      if (error instanceof ConformanceFailure && !step.expect.capture) note(error);
      else throw error;
    }
  };

  const rows: MatrixRow[] = [];
  let result: CaseOutcome;
  try {
    if (context.capabilities.has('control.reset')) await context.control.reset();
    await runBody(testCase, context, { send, sendAll, runRequestStep, bindings, role, note, rows });
    result = found.length > 0 ? brokenOutcome(found, requirements, context, false) : { outcome: 'PASS' };
  } catch (error) {
    if (error instanceof ConformanceFailure) {
      found.push(record(error));
      result = brokenOutcome(found, requirements, context, true);
    } else result = classify(error, context);
  }
  if (rows.length > 0) result = { ...result, matrix: rows };
  const cleanupError = await runCleanup(testCase, bindings, runRequestStep, role);
  // A cleanup request with no answer is the target's failure too; any other broken cleanup is
  // ours to report; one the recording lacks leaves the case unjudged, whatever it found before.
  if (isRecordingMiss(cleanupError)) result = classify(cleanupError, context);
  else if (cleanupError instanceof NoAnswer && result.outcome === 'PASS')
    result = brokenOutcome([record(cleanupError)], requirements, context, false);
  else if (cleanupError && result.outcome === 'PASS')
    result = { outcome: 'ERROR', message: `cleanup failed, later cases may see a changed world: ${cleanupError.message}` };
  if (missingRows.length > 0) {
    const rows = `${missingRows.length} of ${rowRoles.length} rows did not run: no token for role ${missingRows.join(', ')}`;
    result = {
      ...result,
      message: result.message ? `${result.message} (${rows})` : rows,
      unverified: requirements,
      missing: { roles: missingRows },
    };
  }
  return result;
}

interface Runner {
  send(spec: RequestSpec, as?: string): Promise<Exchange>;
  /** Sends the requests at once, as one step of the report; their statuses in order. No answer to one fails `requirement`. */
  sendAll(specs: RequestSpec[], requirement: string): Promise<number[]>;
  runRequestStep(step: RequestStep, bindings: Bindings, as?: string): Promise<void>;
  bindings: Bindings;
  role: string;
  note(error: ConformanceFailure, goOn?: boolean): Found;
  /** An auth matrix's rows, as they run. */
  rows: MatrixRow[];
}

async function runBody(testCase: Case, context: CaseContext, runner: Runner): Promise<void> {
  switch (testCase.kind) {
    case undefined:
    case 'steps':
      for (const step of testCase.steps) {
        if (isRequestStep(step)) await runner.runRequestStep(step, runner.bindings);
        else if (isParallelStep(step)) await runParallel(step, testCase, runner);
        else if ('clock' in step) {
          // `set` may name a captured value: "${until}T23:59:59Z".
          const move = await interpolate(step.clock, runner.bindings);
          await context.hooks.step(`clock ${JSON.stringify(move)}`, () => context.control.clock(move));
        } else await context.hooks.step(`inject ${JSON.stringify(step.inject)}`, () => context.control.inject(step.inject));
      }
      return;
    case 'auth-matrix':
      for (const [role, status] of Object.entries(testCase.expect_by_role)) {
        const row: MatrixRow = {
          role,
          token: context.roles.get(role) ?? `the ${role} token`,
          expected: statusRuleText(status),
          outcome: 'SKIP',
        };
        runner.rows.push(row);
        if (!context.client.hasRole(role)) continue;
        // `${role}` is the row's role: a creating request can name a resource of its own per row.
        const exchange = await runner.send(
          await interpolate(testCase.request, { ...runner.bindings, values: { ...runner.bindings.values, role } }),
          role,
        );
        row.status = exchange.response.status;
        row.outcome = 'PASS';
        try {
          expectStatus(exchange.response, status, testCase.requirements[0]);
        } catch (error) {
          if (!(error instanceof ConformanceFailure)) throw error;
          row.outcome = runner.note(error, true).hard ? 'FAIL' : 'WARN';
        }
      }
      return;
    case 'pagination':
      return walkPagination(
        { ...testCase, request: await interpolate(testCase.request, runner.bindings) },
        (spec) => runner.send(spec),
        runner.note,
      );
    case 'limits': {
      const variants: [keyof LimitsCase['expect'], number][] = [
        ['below', testCase.limit - 1],
        ['at', testCase.limit],
        ['above', testCase.limit + 1],
      ];
      for (const [name, n] of variants) {
        const bindings: Bindings = { values: { n }, list: testCase.list.slice(0, n), secrets: runner.bindings.secrets };
        await runner.runRequestStep({ request: testCase.request, expect: testCase.expect[name] }, bindings);
        for (const step of testCase.verify ?? []) await runner.runRequestStep(step, bindings);
        if (context.capabilities.has('control.reset')) await context.control.reset();
        else for (const step of testCase.cleanup ?? []) await runner.runRequestStep(step, bindings);
      }
      return;
    }
  }
}

/**
 * A parallel step: its copies sent at once, then exactly one `one` and the rest `rest`.
 * Each copy names itself with `X-Request-Id: parallel-copy-<i>` (unless the step sets that
 * header): the copies reach a target in no fixed order, and a service that derives its own
 * request id from the client's (the reference does) then gives each copy the same id in every
 * run, so recordings stay byte-identical.
 */
async function runParallel(step: ParallelStep, testCase: Case, runner: Runner): Promise<void> {
  const { count, request, expect, capture } = step.parallel;
  const lowest = expect.at_most_one ? 0 : 1;
  const requirement = step.requirement ?? testCase.requirements[0];
  const named = Object.keys(request.headers ?? {}).some((name) => name.toLowerCase() === 'x-request-id');
  const specs = await Promise.all(
    Array.from({ length: count }, (_, n) =>
      interpolate(named ? request : { ...request, headers: { ...request.headers, 'X-Request-Id': `parallel-copy-${n + 1}` } }, {
        ...runner.bindings,
        values: { ...runner.bindings.values, i: n + 1 },
      }),
    ),
  );
  const statuses = await runner.sendAll(specs, requirement);
  const rest = Array.isArray(expect.rest) ? expect.rest : [expect.rest];
  const winners = statuses.flatMap((status, n) => (status === expect.one ? [n + 1] : []));
  const others = statuses.filter((status) => status !== expect.one && !rest.includes(status));
  const shown = `statuses ${statuses.join(', ')}`;
  if (winners.length < lowest || winners.length > 1 || others.length > 0)
    runner.note(
      new ConformanceFailure(
        requirement,
        `${expect.at_most_one ? 'at most' : 'exactly'} one of ${count} at once ${expect.one}, the others ${rest.join(' or ')}`,
        shown,
      ),
    );
  if (capture && winners.length === 1) runner.bindings.values[capture] = winners[0];
}

async function runCleanup(testCase: Case, bindings: Bindings, run: Runner['runRequestStep'], role: string): Promise<Error | undefined> {
  try {
    // Limits cases clean up after each variant already.
    if (testCase.kind !== 'limits') for (const step of testCase.cleanup ?? []) await run(step, bindings, role);
    return undefined;
  } catch (error) {
    return error as Error;
  }
}

function failureDetail(found: Found, context: Pick<CaseContext, 'redact'>): FailureDetail {
  const { redact } = context;
  const detail: FailureDetail = {
    requirement: found.error.requirement,
    expected: redact(found.error.expected),
    actual: redact(found.error.actual),
  };
  if (found.role) detail.role = found.role;
  if (found.endpoint) detail.endpoint = found.endpoint;
  const exchange = found.error.exchange ?? (found.exchange && toExchangeRecord(found.exchange.request, found.exchange.response, redact));
  if (exchange) {
    detail.exchange = exchange;
    detail.reproduce = toCurl(exchange.request);
  }
  return detail;
}

function brokenOutcome(found: Found[], requirements: string[], context: CaseContext, stopped: boolean): CaseOutcome {
  return brokenChecks(
    found.map((f) => failureDetail(f, context)),
    requirements,
    context,
    stopped,
  );
}

function classify(error: unknown, context: CaseContext): CaseOutcome {
  if (error instanceof HarnessError && error.code === 'CAPABILITY') return { outcome: 'SKIP', message: error.message };
  if (isRecordingMiss(error)) return { outcome: 'ERROR', message: context.redact(error.message) };
  return { outcome: 'ERROR', message: context.redact(error instanceof Error ? `${error.name}: ${error.message}` : String(error)) };
}
