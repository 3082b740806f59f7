// The generic pagination check: page sizes (default, maximum), link relations, the
// chosen per_page repeated in every URL, a complete walk with no duplicates or gaps
// against the world's known items, a termination guard, no link header when one page
// holds everything, and (MAY, when the case cites it) an empty page past the end. Each assertion cites the
// requirement it enforces, so a failure names the rule that was broken.
//
// Lists are bare arrays, or wrapped (`{total_count, artifacts}`): then `items.path` says
// where the items are and `items.count` where the total is (default `total_count`), and
// every page's total must equal the number of items the walk finds, past the end too.
// The total is part of the list's own shape, so a wrong one breaks the list requirement.
import { ConformanceFailure } from '../core/errors.js';
import type { PaginationCase, RequestSpec } from '../core/suite-format.js';
import { expectStatus, parseJsonBody, showJson } from './expectations.js';
import { jsonEqual, selectPath } from './json-path.js';
import { parseLinkHeader } from './link-header.js';
import type { Exchange } from './target-client.js';
import { headerValue } from './transport.js';

export const PAGINATION_REQUIREMENTS = {
  linkRelations: 'pagination.link-relations',
  noPrevOnFirst: 'pagination.no-prev-on-first-page',
  omittedOnSinglePage: 'pagination.link-omitted-single-page',
  perPageRepeated: 'pagination.per-page-repeated',
  urlQuery: 'pagination.url-query-parameters',
  perPageDefault: 'pagination.per-page-default',
  perPageMax: 'pagination.per-page-max',
  pastEnd: 'pagination.page-past-end-empty',
} as const;

const R = PAGINATION_REQUIREMENTS;
const DEFAULT_COUNT_PATH = 'total_count';

export type Send = (spec: RequestSpec) => Promise<Exchange>;
/** Receives a broken check: throws it to stop the walk, or records it and lets the walk go on. */
export type Note = (failure: ConformanceFailure) => void;

const stop: Note = (failure) => {
  throw failure;
};

const preview = (value: unknown) => (value === undefined ? 'no body' : showJson(value).slice(0, 200));

export async function walkPagination(testCase: PaginationCase, send: Send, note: Note = stop): Promise<void> {
  const listRequirement = testCase.requirements[0];
  const { key, total, path } = testCase.items;
  const countPath = path === undefined ? undefined : (testCase.items.count ?? DEFAULT_COUNT_PATH);
  const perPage = testCase.per_page;
  const keyOf = (item: unknown) => selectPath(item, key);
  const where = path === undefined ? 'a JSON array of items' : `a JSON object with the items in ${path} and the total in ${countPath}`;

  /** The page's items; a wrapped list's total must be the list's total on every page. */
  const itemsOf = (exchange: Exchange, requirement: string): unknown[] => {
    const body = parseJsonBody(exchange.response, requirement);
    const items = path === undefined ? body : selectPath(body, path);
    if (!Array.isArray(items)) throw new ConformanceFailure(requirement, where, preview(body));
    if (countPath !== undefined) {
      const count = selectPath(body, countPath);
      if (count !== total)
        note(
          new ConformanceFailure(
            listRequirement,
            `${countPath} ${total} (the number of items in the list)`,
            `${countPath} ${preview(count)} on ${exchange.request.url}`,
          ),
        );
    }
    return items;
  };
  const getPage = async (query: Record<string, string | number>) => {
    const exchange = await send({ ...testCase.request, query: { ...testCase.request.query, ...query } });
    expectStatus(exchange.response, 200, listRequirement);
    const linkHeader = headerValue(exchange.response.headers, 'link');
    return { exchange, items: itemsOf(exchange, listRequirement), links: parseLinkHeader(linkHeader, exchange.request.url), linkHeader };
  };

  // Default page size. When every item fits in it, a short page is missing items, not a wrong size.
  const first = await getPage({});
  const expectedDefault = Math.min(perPage.default, total);
  if (first.items.length !== expectedDefault) {
    const requirement = total <= perPage.default ? listRequirement : (perPage.default_requirement ?? R.perPageDefault);
    note(
      new ConformanceFailure(
        requirement,
        `${expectedDefault} items without per_page (default ${perPage.default})`,
        `${first.items.length} items`,
      ),
    );
  }

  // A complete walk with a page size that gives at least two pages.
  const size = Math.max(1, Math.min(perPage.max, Math.ceil(total / 3)));
  const pages = Math.ceil(total / size);
  const seen: unknown[] = [];
  let query: Record<string, string | number> = { per_page: size, page: 1 };
  for (let index = 1; ; index++) {
    if (index > pages + 2)
      throw new ConformanceFailure(listRequirement, `the walk to end within ${pages} pages`, `a next link on page ${index - 1}`);
    const page = await getPage(query);
    if (index === 1 && pages > 1 && !page.linkHeader)
      throw new ConformanceFailure(R.linkRelations, `a link header (${total} items, per_page ${size})`, 'no link header');
    for (const [rel, url] of page.links) {
      const expected = new URL(page.exchange.request.url);
      if (url.origin !== expected.origin || url.pathname !== expected.pathname) {
        throw new ConformanceFailure(R.linkRelations, `rel="${rel}" pointing at ${expected.origin}${expected.pathname}`, url.toString());
      }
      if (url.searchParams.get('per_page') !== String(size))
        throw new ConformanceFailure(R.perPageRepeated, `per_page=${size} in rel="${rel}"`, url.toString());
      if (!url.searchParams.has('page')) throw new ConformanceFailure(R.urlQuery, `a page parameter in rel="${rel}"`, url.toString());
    }
    if (index === 1 && page.links.has('prev'))
      throw new ConformanceFailure(R.noPrevOnFirst, 'no rel="prev" on the first page', page.linkHeader ?? '');
    if (index === 1 && pages > 1) {
      const last = page.links.get('last');
      if (last && last.searchParams.get('page') !== String(pages))
        throw new ConformanceFailure(R.linkRelations, `rel="last" at page ${pages}`, last.toString());
    }
    if (page.items.length === 0)
      throw new ConformanceFailure(listRequirement, `items on page ${index} (a next link led here)`, 'an empty page');
    for (const item of page.items) {
      const id = keyOf(item);
      if (seen.some((s) => jsonEqual(s, id)))
        throw new ConformanceFailure(listRequirement, `each item once across pages`, `${key} ${JSON.stringify(id)} again on page ${index}`);
      seen.push(id);
    }
    const next = page.links.get('next');
    if (!next) {
      if (seen.length < total && index < pages)
        throw new ConformanceFailure(R.linkRelations, `rel="next" on page ${index} of ${pages}`, page.linkHeader ?? 'no link header');
      break;
    }
    query = Object.fromEntries(next.searchParams);
  }
  if (seen.length !== total) throw new ConformanceFailure(listRequirement, `${total} items across all pages`, `${seen.length} items`);
  for (const wanted of testCase.items.includes ?? []) {
    if (!seen.some((s) => jsonEqual(s, wanted)))
      throw new ConformanceFailure(listRequirement, `${key} ${JSON.stringify(wanted)} in the list`, 'missing');
  }

  // One page holds everything: no link header at all.
  if (total <= perPage.max) {
    const single = await getPage({ per_page: perPage.max });
    if (single.linkHeader)
      note(new ConformanceFailure(R.omittedOnSinglePage, `no link header when all ${total} items fit`, `link: ${single.linkHeader}`));
  }

  // Above the maximum: never more than the maximum (clamping or a 422 both obey it).
  const maxRequirement = perPage.max_requirement ?? R.perPageMax;
  const above = await send({ ...testCase.request, query: { ...testCase.request.query, per_page: perPage.max + 1 } });
  expectStatus(above.response, [200, 422], maxRequirement);
  if (above.response.status === 200) {
    const count = itemsOf(above, maxRequirement).length;
    if (count > perPage.max)
      note(new ConformanceFailure(maxRequirement, `at most ${perPage.max} items for per_page=${perPage.max + 1}`, `${count} items`));
  }

  // MAY, a choice: a page past the end is an empty list, not an error. Probed only where the
  // case cites it, so a MUST walk never carries the choice.
  if (!testCase.requirements.includes(R.pastEnd)) return;
  const past = await send({ ...testCase.request, query: { ...testCase.request.query, per_page: size, page: pages + 1 } });
  try {
    expectStatus(past.response, 200, R.pastEnd);
    const pastItems = itemsOf(past, R.pastEnd);
    if (pastItems.length !== 0) throw new ConformanceFailure(R.pastEnd, 'an empty list past the last page', preview(pastItems));
  } catch (error) {
    if (!(error instanceof ConformanceFailure)) throw error;
    note(error);
  }
}
