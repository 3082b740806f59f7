// Runs one declarative case against a target and decides its outcome. It knows nothing
// of Playwright: the caller passes hooks for steps and attachments, so the same code runs
// inside `touchstone run` and in-process in the negative-control tests.
import { ConformanceFailure, HarnessError } from '../errors.js';
import { toCurl, toExchangeRecord, type Redactor } from '../http/exchange-record.js';
import { checkExpectation, expectStatus } from '../http/expectations.js';
import { walkPagination } from '../http/pagination-walk.js';
import type { SchemaRegistry } from '../http/schema-registry.js';
import { ANONYMOUS, type Exchange, type TargetClient } from '../http/target-client.js';
import type { TargetControl } from '../http/target-control.js';
import { outcomeOfBroken } from '../report/outcome-order.js';
import type { ExchangeRecord, FailureDetail, Outcome } from '../report/results.js';
import { caseRoles, isRequestStep } from './case-facts.js';
import { interpolate, type Bindings } from './interpolate.js';
import type { RequirementRegistry } from './requirement-registry.js';
import type { Case, LimitsCase, RequestSpec, RequestStep } from './suite-format.js';

export interface CaseHooks {
  step<T>(title: string, body: () => Promise<T>): Promise<T>;
  attach(name: string, record: ExchangeRecord): Promise<void>;
}

export interface CaseContext {
  client: TargetClient;
  control: TargetControl;
  capabilities: ReadonlySet<string>;
  schemas: SchemaRegistry;
  registry: RequirementRegistry;
  redact: Redactor;
  strict: boolean;
  hooks: CaseHooks;
}

export interface CaseOutcome {
  outcome: Outcome;
  message?: string;
  failure?: FailureDetail;
}

export async function runCase(testCase: Case, context: CaseContext): Promise<CaseOutcome> {
  const missingCapability = (testCase.requires ?? []).find((c) => !context.capabilities.has(c));
  if (missingCapability) return { outcome: 'SKIP', message: `the target lacks capability ${missingCapability}` };
  const missingRole = caseRoles(testCase).find((role) => !context.client.hasRole(role));
  if (missingRole) return { outcome: 'SKIP', message: `no token for role ${missingRole} (map it with --tokens)` };

  const role = testCase.as ?? ANONYMOUS;
  let last: Exchange | undefined;
  let lastEndpoint: string | undefined;
  const send = async (spec: RequestSpec, as = role): Promise<Exchange> => {
    const title = `${spec.method} ${spec.path} as ${spec.as ?? as}`;
    return context.hooks.step(title, async () => {
      last = undefined;
      lastEndpoint = `${spec.method} ${spec.path}`;
      const exchange = await context.client.send(spec, as);
      last = exchange;
      await context.hooks.attach(`${title} → ${exchange.response.status}`, toExchangeRecord(exchange.request, exchange.response, context.redact));
      return exchange;
    });
  };
  const bindings: Bindings = { values: {} };
  const runRequestStep = async (step: RequestStep, b: Bindings, as = role) => {
    const exchange = await send(interpolate(step.request, b), as);
    Object.assign(b.values, checkExpectation(exchange.response, interpolate(step.expect, b), { requirement: step.requirement ?? testCase.requirements[0], schemas: context.schemas }));
  };

  let result: CaseOutcome = { outcome: 'PASS' };
  try {
    if (context.capabilities.has('control.reset')) await context.control.reset();
    await runBody(testCase, context, { send, runRequestStep, bindings, role });
  } catch (error) {
    result = classify(error, context, last, lastEndpoint);
  } finally {
    const cleanupError = await runCleanup(testCase, bindings, runRequestStep, role);
    if (cleanupError && result.outcome === 'PASS') result = { outcome: 'ERROR', message: `cleanup failed, later cases may see a changed world: ${cleanupError}` };
  }
  return result;
}

interface Runner {
  send(spec: RequestSpec, as?: string): Promise<Exchange>;
  runRequestStep(step: RequestStep, bindings: Bindings, as?: string): Promise<void>;
  bindings: Bindings;
  role: string;
}

async function runBody(testCase: Case, context: CaseContext, runner: Runner): Promise<void> {
  switch (testCase.kind) {
    case undefined:
    case 'steps':
      for (const step of testCase.steps) {
        if (isRequestStep(step)) await runner.runRequestStep(step, runner.bindings);
        else await context.hooks.step(`clock ${JSON.stringify(step.clock)}`, () => context.control.clock(step.clock));
      }
      return;
    case 'auth-matrix':
      for (const [role, status] of Object.entries(testCase.expect_by_role)) {
        const exchange = await runner.send(testCase.request, role);
        expectStatus(exchange.response, status, testCase.requirements[0]);
      }
      return;
    case 'pagination':
      return walkPagination(testCase, (spec) => runner.send(spec));
    case 'limits': {
      const variants: [keyof LimitsCase['expect'], number][] = [['below', testCase.limit - 1], ['at', testCase.limit], ['above', testCase.limit + 1]];
      for (const [name, n] of variants) {
        const bindings: Bindings = { values: { n }, list: testCase.list.slice(0, n) };
        await runner.runRequestStep({ request: testCase.request, expect: testCase.expect[name] }, bindings);
        for (const step of testCase.verify ?? []) await runner.runRequestStep(step, bindings);
        if (context.capabilities.has('control.reset')) await context.control.reset();
        else for (const step of testCase.cleanup ?? []) await runner.runRequestStep(step, bindings);
      }
      return;
    }
  }
}

async function runCleanup(testCase: Case, bindings: Bindings, run: Runner['runRequestStep'], role: string): Promise<string | undefined> {
  try {
    // Limits cases clean up after each variant already.
    if (testCase.kind !== 'limits') for (const step of testCase.cleanup ?? []) await run(step, bindings, role);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

function classify(error: unknown, context: CaseContext, last: Exchange | undefined, endpoint: string | undefined): CaseOutcome {
  if (error instanceof ConformanceFailure) {
    const level = context.registry.get(error.requirement)?.level ?? 'MUST';
    const outcome = outcomeOfBroken(level, context.strict);
    const exchange = error.exchange ?? (last && toExchangeRecord(last.request, last.response, context.redact));
    const { redact } = context;
    const failure: FailureDetail = { requirement: error.requirement, expected: redact(error.expected), actual: redact(error.actual) };
    if (endpoint) failure.endpoint = endpoint;
    if (exchange) {
      failure.exchange = exchange;
      failure.reproduce = toCurl(exchange.request);
    }
    return { outcome, message: `${level} ${error.requirement}: expected ${failure.expected}, got ${failure.actual}`, failure };
  }
  if (error instanceof HarnessError && error.code === 'CAPABILITY') return { outcome: 'SKIP', message: error.message };
  return { outcome: 'ERROR', message: context.redact(error instanceof Error ? `${error.name}: ${error.message}` : String(error)) };
}
