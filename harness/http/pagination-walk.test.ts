import { expect, test } from '@playwright/test';
import { ConformanceFailure } from '../core/errors.js';
import type { PaginationCase } from '../core/suite-format.js';
import { createFakeListTarget, type ListFaults, type ListShape } from '../../test-support/fake-list-target.js';
import { walkPagination, PAGINATION_REQUIREMENTS as R } from './pagination-walk.js';
import { createTargetClient } from './target-client.js';
import type { Transport } from './transport.js';

const LIST = 'test.list';

function paginationCase(total: number, wrapped?: string, requirements = [LIST, R.pastEnd]): PaginationCase {
  return {
    id: 'walk',
    title: 'walk the fake list',
    requirements,
    kind: 'pagination',
    request: { method: 'GET', path: '/items' },
    per_page: { default: 30, max: 100 },
    items: { key: 'login', total, includes: ['user-001', `user-${String(total).padStart(3, '0')}`], ...(wrapped && { path: wrapped }) },
  };
}

async function walk(transport: Transport, total: number, wrapped?: string): Promise<ConformanceFailure | undefined> {
  const client = createTargetClient({ baseUrl: 'http://target.test', tokens: {}, transport, userAgent: 'test' });
  try {
    await walkPagination(paginationCase(total, wrapped), (spec) => client.send(spec, 'anonymous'));
    return undefined;
  } catch (error) {
    if (error instanceof ConformanceFailure) return error;
    throw error;
  }
}

test('a correct list passes the whole walk, large and small, bare and wrapped', async () => {
  expect(await walk(createFakeListTarget(107), 107)).toBeUndefined();
  expect(await walk(createFakeListTarget(4), 4)).toBeUndefined();
  expect(await walk(createFakeListTarget(107, {}, { wrapped: 'artifacts' }), 107, 'artifacts')).toBeUndefined();
  expect(await walk(createFakeListTarget(4, {}, { wrapped: 'artifacts' }), 4, 'artifacts')).toBeUndefined();
});

test('a wrapped list is walked by its path, and total_count must be the number of items walked', async () => {
  const wrapped: ListShape = { wrapped: 'artifacts' };
  const wrongTotal = await walk(createFakeListTarget(107, { wrongTotal: true }, wrapped), 107, 'artifacts');
  expect(wrongTotal?.requirement).toBe(LIST);
  expect(wrongTotal?.expected).toBe('total_count 107 (the number of items in the list)');
  expect(wrongTotal?.actual).toMatch(/^total_count 108 on /);
  const elsewhere = await walk(createFakeListTarget(107, { itemsElsewhere: true }, wrapped), 107, 'artifacts');
  expect(elsewhere?.requirement).toBe(LIST);
  expect(elsewhere?.expected).toBe('a JSON object with the items in artifacts and the total in total_count');
  // A bare array where a wrapped list is expected, and the other way round.
  expect((await walk(createFakeListTarget(107), 107, 'artifacts'))?.requirement).toBe(LIST);
  expect((await walk(createFakeListTarget(107, {}, wrapped), 107))?.expected).toBe('a JSON array of items');
});

test('the page-by-page rules hold for wrapped lists too', async () => {
  const wrapped: ListShape = { wrapped: 'artifacts' };
  expect((await walk(createFakeListTarget(107, { noLinkHeader: true }, wrapped), 107, 'artifacts'))?.requirement).toBe(R.linkRelations);
  expect((await walk(createFakeListTarget(107, { ignoreMax: true }, wrapped), 107, 'artifacts'))?.requirement).toBe(R.perPageMax);
  expect((await walk(createFakeListTarget(107, { pastEndError: true }, wrapped), 107, 'artifacts'))?.requirement).toBe(R.pastEnd);
});

test('a broken check that only warns is handed to the note and the walk goes on to the end', async () => {
  const client = createTargetClient({
    baseUrl: 'http://target.test',
    tokens: {},
    transport: createFakeListTarget(4, { linkOnSinglePage: true, pastEndError: true }),
    userAgent: 'test',
  });
  const noted: string[] = [];
  await walkPagination(
    paginationCase(4),
    (spec) => client.send(spec, 'anonymous'),
    (failure) => void noted.push(failure.requirement),
  );
  expect(noted).toEqual([R.omittedOnSinglePage, R.pastEnd]);
});

test('a page past the end is asked for only by a case citing that choice', async () => {
  const requestsOf = async (requirements: string[]) => {
    let count = 0;
    const target = createFakeListTarget(4, { pastEndError: true });
    const client = createTargetClient({
      baseUrl: 'http://target.test',
      tokens: {},
      transport: async (request) => {
        count += 1;
        return target(request);
      },
      userAgent: 'test',
    });
    await walkPagination(
      paginationCase(4, undefined, requirements),
      (spec) => client.send(spec, 'anonymous'),
      () => {},
    );
    return count;
  };
  // The same walk, but for the one probe past the end (which this target answers with an error).
  expect(await requestsOf([LIST])).toBe((await requestsOf([LIST, R.pastEnd])) - 1);
});

// Each fault must be caught, and attributed to the rule it breaks.
const controls: [string, ListFaults, number, string][] = [
  ['no link header on a multi-page list', { noLinkHeader: true }, 107, R.linkRelations],
  ['prev on the first page', { prevOnFirstPage: true }, 107, R.noPrevOnFirst],
  ['a link header when one page holds everything', { linkOnSinglePage: true }, 4, R.omittedOnSinglePage],
  ['per_page not repeated in link URLs', { dropPerPageInLinks: true }, 107, R.perPageRepeated],
  ['page missing from link URLs', { dropPageInLinks: true }, 107, R.urlQuery],
  ['links pointing at another origin', { foreignOrigin: true }, 107, R.linkRelations],
  ['rel="last" beyond the last page', { wrongLast: true }, 107, R.linkRelations],
  ['a default page size other than 30', { defaultPerPage: 25 }, 107, R.perPageDefault],
  ['more than the maximum per page', { ignoreMax: true }, 107, R.perPageMax],
  ['an item repeated across pages', { duplicateAcrossPages: true }, 107, LIST],
  ['an item missing from the walk', { skipOneItem: true }, 107, LIST],
  ['a next link that never ends', { endlessNext: true }, 107, LIST],
  ['an error past the last page', { pastEndError: true }, 107, R.pastEnd],
];

for (const [name, faults, total, requirement] of controls) {
  test(`negative control: ${name} fails ${requirement}`, async () => {
    const failure = await walk(createFakeListTarget(total, faults), total);
    expect(failure, 'the walk should have failed').toBeDefined();
    expect(failure!.requirement).toBe(requirement);
  });
}
