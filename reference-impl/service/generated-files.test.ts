// The generated files are what their definitions generate today.
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { allEndpoints, generatedFiles, renderEndpointTable } from './generated-files.js';

test('the README endpoint table and suites/world.schema.json are generated from the definitions (npm run docs:service rewrites them)', () => {
  for (const file of generatedFiles()) {
    const current = readFileSync(file.path, 'utf8');
    expect(file.render(current), `${file.path} is stale: run \`npm run docs:service\``).toBe(current);
  }
});

test('one row per endpoint, with its spec number, path, id and access rule', () => {
  const endpoints = allEndpoints();
  const table = renderEndpointTable(endpoints);
  expect(table.split('\n')).toHaveLength(2 + endpoints.length);
  expect(table).toContain(
    '| 1.8 | `POST /repos/{owner}/{repo}/issues/{issue_number}/assignees` | `assignees.add` | no (401) | public: `repo` or `public_repo`; private: `repo` | issues:write, pull_requests:write | push access; without it the request succeeds and changes nothing |',
  );
});
