// Checks one response against a declarative expectation, in a fixed order (status,
// headers, emptiness, bytes, schema, JSON subset, assertions) so the first failure
// reported is the most basic one. Returns the values the step captures for later steps.
import { ConformanceFailure, HarnessError } from '../core/errors.js';
import type { Expectation, Json, StatusRule } from '../core/suite-format.js';
import { byteFacts, checkBytes } from './body-bytes.js';
import { findSubsetMismatch, jsonEqual, selectPath } from './json-path.js';
import type { SchemaRegistry } from './schema-registry.js';
import { hideSecretJsonFields } from '../secrets/secret-policy.js';
import { headerValue, MAX_BODY_BYTES, type WireResponse } from './transport.js';

/**
 * A JSON value as failure messages quote it: its secret fields (the secrets policy's) hidden,
 * since messages reach the reports. A value nested deeper than JSON.stringify recurses (a hostile
 * body 20,000 levels deep) is named, not shown: the check goes on instead of throwing.
 */
export function showJson(value: unknown): string {
  if (value === undefined) return 'nothing';
  try {
    return hideSecretJsonFields(JSON.stringify(value));
  } catch (error) {
    if (error instanceof RangeError) return 'a JSON value nested too deep to show';
    throw error;
  }
}

export function parseJsonBody(response: WireResponse, requirement: string): unknown {
  if (response.body.length === 0) return undefined;
  try {
    return JSON.parse(response.body.toString('utf8'));
  } catch {
    throw new ConformanceFailure(requirement, 'a JSON body', `${response.body.length} bytes that do not parse as JSON`);
  }
}

/** What a status rule allows, as messages and reports say it: "403", "200 or 404", "4xx". */
export function statusRuleText(status: StatusRule | StatusRule[]): string {
  return (Array.isArray(status) ? status : [status]).join(' or ');
}

export function expectStatus(response: WireResponse, status: StatusRule | StatusRule[], requirement: string): void {
  const allowed = Array.isArray(status) ? status : [status];
  const matches = (rule: StatusRule) => (typeof rule === 'number' ? rule === response.status : rule[0] === String(response.status)[0]);
  if (!allowed.some(matches)) {
    throw new ConformanceFailure(requirement, `status ${statusRuleText(status)}`, `status ${response.status}`);
  }
}

function checkAssertion(body: unknown, assertion: NonNullable<Expectation['assert']>[number], requirement: string): void {
  const value = selectPath(body, assertion.path);
  const fail = (expected: string) => {
    throw new ConformanceFailure(requirement, `${assertion.path} ${expected}`, `${assertion.path} = ${showJson(value)}`);
  };
  if (assertion.equals !== undefined && !jsonEqual(value, assertion.equals)) fail(`equal to ${showJson(assertion.equals)}`);
  const list = Array.isArray(value) ? value : undefined;
  if (assertion.includes !== undefined && !list?.some((v) => jsonEqual(v, assertion.includes)))
    fail(`to include ${showJson(assertion.includes)}`);
  if (assertion.excludes !== undefined && (!list || list.some((v) => jsonEqual(v, assertion.excludes))))
    fail(`to exclude ${showJson(assertion.excludes)}`);
  if (assertion.length !== undefined && list?.length !== assertion.length) fail(`to have ${assertion.length} items`);
  if (assertion.max_length !== undefined && (!list || list.length > assertion.max_length))
    fail(`to have at most ${assertion.max_length} items`);
  if (assertion.matches !== undefined && (typeof value !== 'string' || !new RegExp(assertion.matches).test(value)))
    fail(`to match /${assertion.matches}/`);
  if (assertion.sorted !== undefined && !isSorted(list, assertion.sorted)) fail(`to be sorted ${assertion.sorted}`);
  if (assertion.each_matches !== undefined && !list?.every((v) => typeof v === 'string' && new RegExp(assertion.each_matches!).test(v)))
    fail(`to be strings each matching /${assertion.each_matches}/`);
  if (assertion.each_in !== undefined && !list?.every((v) => assertion.each_in!.some((allowed) => jsonEqual(v, allowed))))
    fail(`to hold only items of ${showJson(assertion.each_in)}`);
  const numbers = list?.every((v) => typeof v === 'number') ? (list as number[]) : undefined;
  const total = numbers?.reduce((a, b) => a + b, 0);
  const bound = (v: number | string) => Number(v);
  if (assertion.each_at_most !== undefined && !numbers?.every((v) => v <= bound(assertion.each_at_most!)))
    fail(`to be numbers each at most ${assertion.each_at_most}`);
  if (assertion.one_of !== undefined && !assertion.one_of.some((allowed) => jsonEqual(value, allowed)))
    fail(`to be one of ${showJson(assertion.one_of)}`);
  if (assertion.at_most !== undefined && !(typeof value === 'number' && value <= bound(assertion.at_most)))
    fail(`to be a number at most ${assertion.at_most}`);
  if (assertion.at_least !== undefined && !(typeof value === 'number' && value >= bound(assertion.at_least)))
    fail(`to be a number at least ${assertion.at_least}`);
  if (assertion.members !== undefined && !sameMembers(list, assertion.members))
    fail(`to hold exactly ${showJson(assertion.members)} in any order`);
  if (assertion.instant !== undefined) {
    const instants = (Array.isArray(assertion.instant) ? assertion.instant : [assertion.instant]).map((t) => Date.parse(t));
    if (!(typeof value === 'string' && TIMESTAMP.test(value) && instants.includes(Date.parse(value))))
      fail(`to be a timestamp of the instant ${(Array.isArray(assertion.instant) ? assertion.instant : [assertion.instant]).join(' or ')}`);
  }
  if (assertion.sum !== undefined && total !== bound(assertion.sum)) fail(`to be numbers summing to ${assertion.sum}`);
  if (assertion.sum_at_least !== undefined && !(total !== undefined && total >= bound(assertion.sum_at_least)))
    fail(`to be numbers summing to at least ${assertion.sum_at_least}`);
}

/** An ISO 8601 date and time with seconds and a zone (Z or an offset); any fraction of a second. */
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

/**
 * `list` holds exactly `expected`'s items, each as often, in any order. An expected object
 * matches an item holding at least its fields (as `json` does): the spec lists fields, it does
 * not forbid others.
 */
function sameMembers(list: unknown[] | undefined, expected: Json[]): boolean {
  if (!list || list.length !== expected.length) return false;
  const left = [...expected];
  return list.every((item) => {
    const at = left.findIndex((candidate) => findSubsetMismatch(item, candidate) === undefined);
    if (at < 0) return false;
    left.splice(at, 1);
    return true;
  });
}

/** A list of numbers, or of strings, each neighbour pair in the order (ties allowed). */
function isSorted(list: unknown[] | undefined, order: 'ascending' | 'descending'): boolean {
  if (!list || !(list.every((v) => typeof v === 'number') || list.every((v) => typeof v === 'string'))) return false;
  const values = list as (number | string)[];
  return values.every((value, i) => i === 0 || (order === 'ascending' ? values[i - 1] <= value : values[i - 1] >= value));
}

export async function checkExpectation(
  response: WireResponse,
  expect: Expectation,
  context: { requirement: string; schemas: SchemaRegistry },
): Promise<Record<string, string | number>> {
  const { requirement } = context;
  if (expect.status !== undefined) expectStatus(response, expect.status, requirement);

  for (const [name, rule] of Object.entries(expect.headers ?? {})) {
    const value = headerValue(response.headers, name);
    const actual = value === undefined ? `no ${name} header` : `${name}: ${value}`;
    if (typeof rule === 'string') {
      if (value !== rule) throw new ConformanceFailure(requirement, `${name}: ${rule}`, actual);
      continue;
    }
    if (rule.present === true && value === undefined) throw new ConformanceFailure(requirement, `a ${name} header`, actual);
    if (rule.present === false && value !== undefined) throw new ConformanceFailure(requirement, `no ${name} header`, actual);
    if (rule.matches !== undefined && (value === undefined || !new RegExp(rule.matches).test(value))) {
      throw new ConformanceFailure(requirement, `${name} matching /${rule.matches}/`, actual);
    }
  }

  const captureSources = Object.values(expect.capture ?? {});
  const readsBody =
    expect.empty ||
    expect.bytes ||
    expect.schema ||
    expect.json !== undefined ||
    expect.assert ||
    captureSources.some((s) => !s.startsWith('header'));
  if (readsBody && response.truncated)
    throw new HarnessError('TARGET_IO', `the response body is over ${MAX_BODY_BYTES} bytes, more than the checks of its body may read`);
  const needsJson =
    expect.schema !== undefined ||
    expect.json !== undefined ||
    expect.assert !== undefined ||
    captureSources.some((s) => s.startsWith('body'));
  if (expect.empty) {
    const text = response.body.toString('utf8').trim();
    const empty =
      text === '' ||
      (() => {
        try {
          return jsonEqual(JSON.parse(text), {});
        } catch {
          return false;
        }
      })();
    if (!empty) throw new ConformanceFailure(requirement, 'an empty body (no bytes or {})', `body ${text.slice(0, 200)}`);
  }
  if (expect.bytes) await checkBytes(response.body, expect.bytes, requirement);
  const body = needsJson ? parseJsonBody(response, requirement) : undefined;

  if (expect.schema !== undefined) {
    const problems = context.schemas.check(expect.schema, body);
    if (problems) throw new ConformanceFailure(requirement, `a body matching schema ${expect.schema}`, problems);
  }
  if (expect.json !== undefined) {
    const mismatch = findSubsetMismatch(body, expect.json);
    if (mismatch)
      throw new ConformanceFailure(
        requirement,
        `${mismatch.path} = ${showJson(mismatch.expected)}`,
        `${mismatch.path} = ${showJson(mismatch.actual)}`,
      );
  }
  for (const assertion of expect.assert ?? []) checkAssertion(body, assertion, assertion.requirement ?? requirement);

  const captures: Record<string, string | number> = {};
  let facts: Record<string, string | number> | undefined; // hashed once, however many bytes.* captures
  for (const [name, source] of Object.entries(expect.capture ?? {})) {
    const value = source.startsWith('header.')
      ? headerValue(response.headers, source.slice('header.'.length))
      : source.startsWith('bytes.')
        ? (facts ??= byteFacts(response.body))[source.slice('bytes.'.length)]
        : selectPath(body, source.replace(/^body\.?/, '$.'));
    if (typeof value !== 'string' && typeof value !== 'number') {
      throw new ConformanceFailure(requirement, `${source} to be captured as ${name}`, `${source} = ${showJson(value)}`);
    }
    captures[name] = value;
  }
  return captures;
}
