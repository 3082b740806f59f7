// Test support: an in-memory paginated list endpoint that behaves correctly by default,
// with one switch per way of getting pagination wrong. Negative controls flip one switch
// and expect the walker to fail citing exactly the rule broken.
import type { HeaderPairs } from '../harness/core/results.js';
import type { Transport, WireResponse } from '../harness/http/transport.js';

export interface ListFaults {
  noLinkHeader?: boolean;
  prevOnFirstPage?: boolean;
  linkOnSinglePage?: boolean;
  dropPerPageInLinks?: boolean;
  dropPageInLinks?: boolean;
  foreignOrigin?: boolean;
  wrongLast?: boolean;
  defaultPerPage?: number;
  ignoreMax?: boolean;
  duplicateAcrossPages?: boolean;
  skipOneItem?: boolean;
  endlessNext?: boolean;
  pastEndError?: boolean;
  /** Wrapped lists only: total_count off by one. */
  wrongTotal?: boolean;
  /** Wrapped lists only: the items under another key than the case names. */
  itemsElsewhere?: boolean;
}

/** `wrapped` answers `{total_count, <wrapped>: [...]}` instead of a bare array. */
export interface ListShape {
  perPageDefault?: number;
  perPageMax?: number;
  wrapped?: string;
}

export function createFakeListTarget(
  total: number,
  faults: ListFaults = {},
  { perPageDefault = 30, perPageMax = 100, wrapped }: ListShape = {},
): Transport {
  const items = Array.from({ length: total }, (_, i) => ({ login: `user-${String(i + 1).padStart(3, '0')}`, id: i + 1 }));
  const listed = faults.skipOneItem ? items.filter((_, i) => i !== 1) : items;
  return async (request) => {
    const url = new URL(request.url);
    const explicit = url.searchParams.get('per_page');
    let perPage = explicit ? Number(explicit) : (faults.defaultPerPage ?? perPageDefault);
    if (!faults.ignoreMax) perPage = Math.min(perPage, perPageMax);
    const page = Number(url.searchParams.get('page') ?? '1');
    const pages = Math.max(1, Math.ceil(listed.length / perPage));
    if (page > pages && faults.pastEndError) return json(404, { message: 'Not Found' });
    const start = faults.duplicateAcrossPages && page > 1 ? (page - 1) * perPage - 1 : (page - 1) * perPage;
    const body = listed.slice(start, start + perPage);
    const headers: HeaderPairs = [['Content-Type', 'application/json; charset=utf-8']];
    const link = (n: number, rel: string) => {
      const target = new URL(url);
      if (faults.foreignOrigin) target.host = 'elsewhere.invalid';
      target.searchParams.set('page', String(n));
      if (faults.dropPageInLinks) target.searchParams.delete('page');
      if (faults.dropPerPageInLinks) target.searchParams.delete('per_page');
      return `<${target}>; rel="${rel}"`;
    };
    const links: string[] = [];
    if (page > 1 || faults.prevOnFirstPage) links.push(link(1, 'first'), link(Math.max(1, page - 1), 'prev'));
    if (page < pages || faults.endlessNext) links.push(link(page + 1, 'next'));
    if (page < pages) links.push(link(faults.wrongLast ? pages + 1 : pages, 'last'));
    if (pages === 1 && faults.linkOnSinglePage) links.push(link(1, 'first'));
    if (links.length && !faults.noLinkHeader) headers.push(['Link', links.join(', ')]);
    const document =
      wrapped === undefined
        ? body
        : { total_count: listed.length + (faults.wrongTotal ? 1 : 0), [faults.itemsElsewhere ? 'items' : wrapped]: body };
    return { status: 200, headers, body: Buffer.from(JSON.stringify(document)) };
  };
}

function json(status: number, body: unknown): WireResponse {
  return { status, headers: [['Content-Type', 'application/json']], body: Buffer.from(JSON.stringify(body)) };
}
