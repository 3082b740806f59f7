// checkExpectation on its own: the order of checks (the most basic failure is the one
// reported), what each capture source takes, and the messages a user reads.
import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { ConformanceFailure } from '../core/errors.js';
import { suitePaths } from '../core/suite-paths.js';
import type { Expectation } from '../core/suite-format.js';
import { checkExpectation } from './expectations.js';
import { loadSchemaRegistry } from './schema-registry.js';
import type { WireResponse } from './transport.js';

const context = { requirement: 'test.must', schemas: loadSchemaRegistry(suitePaths.schemas) };
const response = (status: number, body: string, headers: [string, string][] = []): WireResponse => ({
  status,
  headers,
  body: Buffer.from(body),
});
const failure = async (r: WireResponse, e: Expectation) =>
  checkExpectation(r, e, context).then(
    () => undefined,
    (error: unknown) => {
      if (!(error instanceof ConformanceFailure)) throw error;
      return { requirement: error.requirement, expected: error.expected, actual: error.actual };
    },
  );

test('captures take a body path, a header (case-insensitive, repeats joined) or a fact of the bytes', async () => {
  const body = '{"a":{"b":[{"id":7}]}}';
  const r = response(201, body, [
    ['ETag', '"v1"'],
    ['Link', '<x>; rel="next"'],
    ['link', '<y>; rel="last"'],
  ]);
  const captured = await checkExpectation(
    r,
    { capture: { id: 'body.a.b[0].id', etag: 'header.etag', link: 'header.LINK', size: 'bytes.size', sha: 'bytes.sha256' } },
    context,
  );
  expect(captured).toEqual({
    id: 7,
    etag: '"v1"',
    link: '<x>; rel="next", <y>; rel="last"',
    size: body.length,
    sha: createHash('sha256').update(body).digest('hex'),
  });
});

test('a value that is not there, or not a string or number, cannot be captured: the failure says where it looked', async () => {
  expect(await failure(response(200, '{"a":{}}'), { capture: { id: 'body.a.id' } })).toEqual({
    requirement: 'test.must',
    expected: 'body.a.id to be captured as id',
    actual: 'body.a.id = nothing',
  });
  expect(await failure(response(200, '{"a":{"id":[1]}}'), { capture: { id: 'body.a.id' } })).toMatchObject({ actual: 'body.a.id = [1]' });
  expect(await failure(response(200, '{}'), { capture: { tag: 'header.etag' } })).toMatchObject({ actual: 'header.etag = nothing' });
});

test('checks run in a fixed order, so the most basic broken one is reported: status before headers before body', async () => {
  const r = response(500, 'not json', [['Content-Type', 'text/plain']]);
  const all: Expectation = { status: 200, headers: { 'content-type': 'application/json' }, json: { a: 1 } };
  expect(await failure(r, all)).toMatchObject({ expected: 'status 200', actual: 'status 500' });
  expect(await failure({ ...r, status: 200 }, all)).toMatchObject({ expected: 'content-type: application/json' });
  expect(await failure({ ...r, status: 200, headers: [['Content-Type', 'application/json']] }, all)).toMatchObject({
    expected: 'a JSON body',
    actual: '8 bytes that do not parse as JSON',
  });
});

test('an assertion may cite its own requirement, and a failed one shows the value it found', async () => {
  const r = response(200, '{"xs":[3,1,2]}');
  expect(await failure(r, { assert: [{ path: 'xs', sorted: 'descending', requirement: 'test.should' }] })).toEqual({
    requirement: 'test.should',
    expected: 'xs to be sorted descending',
    actual: 'xs = [3,1,2]',
  });
});

test('list assertions: each_matches, each_in, each_at_most, sum and sum_at_least hold lists to a set and to numbers (captured ones as text)', async () => {
  const r = response(200, '{"total":6,"xs":[{"n":3,"t":"a"},{"n":1,"t":"b"},{"n":2,"t":"a"}]}');
  const holds = (assertion: Record<string, unknown>) =>
    failure(r, { assert: [{ path: 'xs[*].n', ...assertion }] as Expectation['assert'] });
  for (const ok of [{ sum: 6 }, { sum: '6' }, { sum_at_least: 6 }, { each_at_most: '3' }, { each_in: [1, 2, 3] }])
    expect(await holds(ok)).toBeUndefined();
  expect(await holds({ sum: 7 })).toEqual({
    requirement: 'test.must',
    expected: 'xs[*].n to be numbers summing to 7',
    actual: 'xs[*].n = [3,1,2]',
  });
  expect(await holds({ sum_at_least: 7 })).toMatchObject({ expected: 'xs[*].n to be numbers summing to at least 7' });
  expect(await holds({ each_at_most: 2 })).toMatchObject({ expected: 'xs[*].n to be numbers each at most 2' });
  expect(await holds({ each_in: [1, 3] })).toMatchObject({ expected: 'xs[*].n to hold only items of [1,3]' });
  const texts = (each_matches: string) => failure(r, { assert: [{ path: 'xs[*].t', each_matches }] });
  expect(await texts('^[ab]$')).toBeUndefined();
  expect(await texts('^a$')).toMatchObject({ expected: 'xs[*].t to be strings each matching /^a$/' });
  expect(await holds({ each_matches: '.' })).toMatchObject({ expected: 'xs[*].n to be strings each matching /./' });
  // Not numbers, or not a list: the numeric checks fail rather than pass by accident.
  expect(await failure(r, { assert: [{ path: 'xs[*].t', sum_at_least: 0 }] })).toMatchObject({ actual: 'xs[*].t = ["a","b","a"]' });
  expect(await failure(r, { assert: [{ path: 'total', each_at_most: 9 }] })).toMatchObject({ actual: 'total = 6' });
});

test('a truncated body (over the transport bound): status and headers are still judged, a check of the body is a harness error', async () => {
  const huge: WireResponse = { ...response(200, 'aaaa', [['Content-Type', 'text/plain']]), truncated: true };
  // The target served what it should have refused: a conformance failure, by its status.
  expect(await failure(huge, { status: 403 })).toEqual({ requirement: 'test.must', expected: 'status 403', actual: 'status 200' });
  expect(
    await checkExpectation(
      huge,
      { status: 200, headers: { 'content-type': 'text/plain' }, capture: { type: 'header.content-type' } },
      context,
    ),
  ).toEqual({
    type: 'text/plain',
  });
  for (const e of [{ bytes: { size: 4 } }, { json: {} }, { empty: true }, { capture: { size: 'bytes.size' } }] as Expectation[])
    await expect(checkExpectation(huge, { status: 200, ...e }, context)).rejects.toThrow(/response body is over 33554432 bytes/);
});

test('value assertions: one_of and at_most hold one value (a list is not a number)', async () => {
  const r = response(200, '{"status":"importing","percent":40,"xs":[1]}');
  const check = (path: string, assertion: Record<string, unknown>) =>
    failure(r, { assert: [{ path, ...assertion }] as Expectation['assert'] });
  expect(await check('status', { one_of: ['detecting', 'importing'] })).toBeUndefined();
  expect(await check('percent', { at_most: 40 })).toBeUndefined();
  expect(await check('percent', { at_most: '40' })).toBeUndefined();
  expect(await check('status', { one_of: ['complete'] })).toEqual({
    requirement: 'test.must',
    expected: 'status to be one of ["complete"]',
    actual: 'status = "importing"',
  });
  expect(await check('percent', { at_most: 39 })).toMatchObject({ expected: 'percent to be a number at most 39' });
  expect(await check('xs', { at_most: 9 })).toMatchObject({ actual: 'xs = [1]' });
  expect(await check('missing', { at_most: 9 })).toMatchObject({ expected: 'missing to be a number at most 9' });
});
