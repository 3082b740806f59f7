// The one pagination helper every list uses (README "Pagination"), pageOf: parses per_page
// and page, slices, and sets the link header, built on the request's own URL.
//
// Decisions where the spec is silent, each with the variation that makes it otherwise
// (variants.ts; suites/variants/conventions.yaml):
// - a page past the end: 200 with an empty list (pagination.page-past-end-empty);
//   pagination.past-end-404 answers 404.
// - a per_page or page that is not a positive integer: 422 naming it
//   (pagination.invalid-parameters-422); pagination.invalid-parameters-ignored uses the default
//   instead, pagination.invalid-parameters-400 answers 400.
// - a default page size the spec does not show: the area passes its own (defaultPerPage), and
//   where it reads a variation for another, passes that (an area's choice, read where it calls pageOf).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, notFound, validationFailed } from './errors.js';
import { requestOrigin } from './request-origin.js';
import type { Variants } from './variants.js';

export interface PageOptions {
  defaultPerPage?: number;
  maxPerPage?: number;
}

export interface Page<T> {
  items: T[];
  /** The `link` header value, or null when it is to be omitted. */
  link: string | null;
}

function paginate<T>(request: FastifyRequest, items: readonly T[], options: PageOptions = {}): Page<T> {
  const { faults, variants } = request;
  const { maxPerPage = 100 } = options;
  const defaultPerPage = faults.on('pagination.default-per-page-25') ? 25 : (options.defaultPerPage ?? 30);
  const query = request.query as Record<string, unknown>;
  const givenPerPage = readPositive(query.per_page, 'per_page', variants);
  const perPage =
    givenPerPage === undefined ? defaultPerPage : faults.on('pagination.max-ignored') ? givenPerPage : Math.min(givenPerPage, maxPerPage);
  const page = readPositive(query.page, 'page', variants) ?? (faults.on('pagination.page-default-2') ? 2 : 1);
  const lastPage = Math.max(1, Math.ceil(items.length / perPage));
  if (page > lastPage && variants.on('pagination.past-end-404')) throw notFound();
  const start = (page - 1) * perPage;
  const slice = start < items.length ? items.slice(start, start + perPage) : [];
  // One page holds everything: no link, unless the client asked for a page past it.
  if (items.length <= perPage && page === 1 && !faults.on('pagination.link-on-single-page')) return { items: slice, link: null };

  // Only the path and query of the request are kept: the origin is always our own.
  const { pathname, search } = new URL(request.url, 'http://localhost');
  const url = new URL(requestOrigin(request) + pathname + search);
  if (givenPerPage !== undefined) url.searchParams.set('per_page', String(perPage));
  if (faults.on('pagination.per-page-not-repeated')) url.searchParams.delete('per_page');
  const at = (target: number, rel: string) => {
    url.searchParams.set('page', String(target));
    if (faults.on('pagination.page-missing-in-links')) url.searchParams.delete('page');
    return `<${url.toString()}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (page > 1 || faults.on('pagination.prev-on-first-page') || faults.on('pagination.link-on-single-page'))
    links.push(at(1, 'first'), at(Math.max(1, page - 1), 'prev'));
  if (page < lastPage) links.push(at(page + 1, 'next'), at(lastPage, 'last'));
  else if (page > lastPage) links.push(at(lastPage, 'last'));
  return { items: slice, link: faults.on('pagination.no-link-header') ? null : links.join(', ') };
}

/** The page of `items` the request asks for, with its link header set on the reply. */
export function pageOf<T>(request: FastifyRequest, reply: FastifyReply, items: readonly T[], options?: PageOptions): T[] {
  const page = paginate(request, items, options);
  if (page.link !== null) reply.header('link', page.link);
  return page.items;
}

/** A decimal integer ≥ 1, or undefined when absent; anything else is a 422 naming the parameter. */
function readPositive(value: unknown, field: string, variants: Variants): number | undefined {
  if (value === undefined) return undefined;
  // Beyond MAX_SAFE_INTEGER arithmetic on pages stops being exact; refuse rather than guess.
  const parsed = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(parsed) || parsed < 1) {
    if (variants.on('pagination.invalid-parameters-ignored')) return undefined;
    if (variants.on('pagination.invalid-parameters-400')) throw new ApiError(400, 'BAD_REQUEST', `${field} must be a positive integer`);
    throw validationFailed([{ resource: 'Search', field, code: 'invalid' }]);
  }
  return parsed;
}
