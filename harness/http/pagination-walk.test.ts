import { expect, test } from '@playwright/test';
import { ConformanceFailure } from '../errors.js';
import type { PaginationCase } from '../suite/suite-format.js';
import { createFakeListTarget, type ListFaults } from './fake-list-target.js';
import { walkPagination, PAGINATION_REQUIREMENTS as R } from './pagination-walk.js';
import { createTargetClient } from './target-client.js';
import type { Transport } from './transport.js';

const LIST = 'test.list';

function paginationCase(total: number): PaginationCase {
  return {
    id: 'walk', title: 'walk the fake list', requirements: [LIST], kind: 'pagination',
    request: { method: 'GET', path: '/items' },
    per_page: { default: 30, max: 100 },
    items: { key: 'login', total, includes: ['user-001', `user-${String(total).padStart(3, '0')}`] },
  };
}

async function walk(transport: Transport, total: number): Promise<ConformanceFailure | undefined> {
  const client = createTargetClient({ baseUrl: 'http://target.test', tokens: {}, transport, userAgent: 'test' });
  try {
    await walkPagination(paginationCase(total), (spec) => client.send(spec, 'anonymous'));
    return undefined;
  } catch (error) {
    if (error instanceof ConformanceFailure) return error;
    throw error;
  }
}

test('a correct list passes the whole walk, large and small', async () => {
  expect(await walk(createFakeListTarget(107), 107)).toBeUndefined();
  expect(await walk(createFakeListTarget(4), 4)).toBeUndefined();
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
