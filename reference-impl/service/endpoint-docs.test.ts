// The README's endpoint table is the one the definitions generate.
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { allEndpoints, README_PATH, renderEndpointTable, withEndpointTable } from './endpoint-docs.js';

test('the README endpoint table is generated from the definitions (npm run docs:service rewrites it)', () => {
  const readme = readFileSync(README_PATH, 'utf8');
  expect(withEndpointTable(readme, renderEndpointTable(allEndpoints())), 'run `npm run docs:service`').toBe(readme);
});

test('one row per endpoint, with its spec number, path, id and access rule', () => {
  const table = renderEndpointTable(allEndpoints());
  expect(table.split('\n')).toHaveLength(2 + 10);
  expect(table).toContain('| 1.8 | `POST /repos/{owner}/{repo}/issues/{issue_number}/assignees` | `assignees.add` | no (401) | public: `repo` or `public_repo`; private: `repo` | issues:write, pull_requests:write | push access; without it the request succeeds and changes nothing |');
});
