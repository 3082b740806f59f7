// The link header as targets really write it, and as they get it wrong.
import { expect, test } from '@playwright/test';
import { parseLinkHeader } from './link-header.js';

const BASE = 'http://127.0.0.1:8080/repos/o/r/assignees?per_page=2';
const parsed = (value: string | undefined) => Object.fromEntries([...parseLinkHeader(value, BASE)].map(([rel, url]) => [rel, url.href]));

test('the four pagination relations, in any order, with absolute URLs', () => {
  const header =
    '<http://127.0.0.1:8080/repos/o/r/assignees?per_page=2&page=3>; rel="next", <http://127.0.0.1:8080/repos/o/r/assignees?per_page=2&page=9>; rel="last", ' +
    '<http://127.0.0.1:8080/repos/o/r/assignees?per_page=2&page=1>; rel="first", <http://127.0.0.1:8080/repos/o/r/assignees?per_page=2&page=1>; rel="prev"';
  expect(parsed(header)).toEqual({
    next: 'http://127.0.0.1:8080/repos/o/r/assignees?per_page=2&page=3',
    last: 'http://127.0.0.1:8080/repos/o/r/assignees?per_page=2&page=9',
    first: 'http://127.0.0.1:8080/repos/o/r/assignees?per_page=2&page=1',
    prev: 'http://127.0.0.1:8080/repos/o/r/assignees?per_page=2&page=1',
  });
});

test('relative URLs resolve against the request; rel is case-insensitive, may be unquoted and may name several relations', () => {
  expect(parsed('</repos/o/r/assignees?page=2>; REL=Next')).toEqual({ next: 'http://127.0.0.1:8080/repos/o/r/assignees?page=2' });
  expect(parsed('<?page=1>; rel="prev first"')).toEqual({
    prev: 'http://127.0.0.1:8080/repos/o/r/assignees?page=1',
    first: 'http://127.0.0.1:8080/repos/o/r/assignees?page=1',
  });
});

test('other parameters, quoted commas and semicolons, and commas inside the URI do not split a link value', () => {
  expect(parsed('<https://x.test/a?ids=1,2>; title="one, two; three"; rel="next", <https://x.test/z>; rel=last')).toEqual({
    next: 'https://x.test/a?ids=1,2',
    last: 'https://x.test/z',
  });
});

test('malformed values are skipped, not thrown: no angle brackets, no rel, a URI that does not parse, nothing at all', () => {
  expect(parsed(undefined)).toEqual({});
  expect(parsed('')).toEqual({});
  expect(parsed('https://x.test/a; rel="next"')).toEqual({});
  expect(parsed('<https://x.test/a>; title="no relation"')).toEqual({});
  expect(parsed('<http://[::1>; rel="next", <https://x.test/ok>; rel="last"')).toEqual({ last: 'https://x.test/ok' });
  expect(parsed('<https://x.test/a>; rel=""')).toEqual({});
});
