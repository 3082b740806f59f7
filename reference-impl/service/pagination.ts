// The one pagination helper every list uses (README "Pagination"): parses per_page and
// page, slices, and builds the link header on the request's own URL.
import type { FastifyRequest } from 'fastify';
import { validationFailed } from './errors.js';
import { requestOrigin } from './request-origin.js';

export interface PageOptions {
  defaultPerPage?: number;
  maxPerPage?: number;
}

export interface Page<T> {
  items: T[];
  /** The `link` header value, or null when it is to be omitted. */
  link: string | null;
}

export function paginate<T>(request: FastifyRequest, items: readonly T[], options: PageOptions = {}): Page<T> {
  const { defaultPerPage = 30, maxPerPage = 100 } = options;
  const query = request.query as Record<string, unknown>;
  const givenPerPage = readPositive(query.per_page, 'per_page');
  const perPage = givenPerPage === undefined ? defaultPerPage : Math.min(givenPerPage, maxPerPage);
  const page = readPositive(query.page, 'page') ?? 1;
  const lastPage = Math.max(1, Math.ceil(items.length / perPage));
  const start = (page - 1) * perPage;
  const slice = start < items.length ? items.slice(start, start + perPage) : [];
  // One page holds everything: no link, unless the client asked for a page past it.
  if (items.length <= perPage && page === 1) return { items: slice, link: null };

  // Only the path and query of the request are kept: the origin is always our own.
  const { pathname, search } = new URL(request.url, 'http://localhost');
  const url = new URL(requestOrigin(request) + pathname + search);
  if (givenPerPage !== undefined) url.searchParams.set('per_page', String(perPage));
  const at = (target: number, rel: string) => {
    url.searchParams.set('page', String(target));
    return `<${url.toString()}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (page > 1) links.push(at(1, 'first'), at(page - 1, 'prev'));
  if (page < lastPage) links.push(at(page + 1, 'next'), at(lastPage, 'last'));
  else if (page > lastPage) links.push(at(lastPage, 'last'));
  return { items: slice, link: links.join(', ') };
}

/** A decimal integer ≥ 1, or undefined when absent; anything else is a 422 naming the parameter. */
function readPositive(value: unknown, field: string): number | undefined {
  if (value === undefined) return undefined;
  // Beyond MAX_SAFE_INTEGER arithmetic on pages stops being exact; refuse rather than guess.
  const parsed = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(parsed) || parsed < 1) {
    throw validationFailed([{ resource: 'Search', field, code: 'invalid' }]);
  }
  return parsed;
}
