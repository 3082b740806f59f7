// Every endpoint's example (suites/endpoints/*.yaml) names its path parameters and a role of
// the world. That the world answers each with its status is what the generated cases check
// (cross-cutting-cases.ts): the scheme and version cases send the example unchanged, and
// `touchstone run` against the reference passes them.
import { expect, test } from '@playwright/test';
import { loadEndpointAliases } from './endpoint-aliases.js';
import { readWorldTokens } from './world-tokens.js';

/** The endpoints without an example, each with a reason in its YAML: no success answer the world fixes. */
const WITHOUT_EXAMPLE = [
  // The world does not fix the ids of protection rules.
  'protection.disable',
  'protection.get',
  // Retired at 2024-04-12; the world's clock starts after it: 410 on every one.
  'imports.authors',
  'imports.cancel',
  'imports.get',
  'imports.start',
  'imports.update',
  // The world declares no secret (404), and a value must be sealed to the target's own key.
  'secrets.delete',
  'secrets.get',
  'secrets.put',
];

const templateParams = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

test('every endpoint has an example but those the world gives no success, and each names exactly its path parameters', () => {
  const endpoints = [...loadEndpointAliases().values()];
  expect(endpoints).toHaveLength(64);
  expect(
    endpoints
      .filter((endpoint) => !endpoint.example)
      .map((endpoint) => endpoint.id)
      .sort(),
  ).toEqual([...WITHOUT_EXAMPLE].sort());
  const roles = new Set(Object.keys(readWorldTokens()));
  for (const { id, path, example, public: open } of endpoints) {
    if (!example) continue;
    expect(Object.keys(example.params ?? {}).sort(), `${id}: params of ${path}`).toEqual(templateParams(path));
    if (example.as === 'anonymous') expect(open, `${id}: anonymous example of an endpoint that is not public`).toBe(true);
    else expect(roles.has(example.as), `${id}: role ${example.as} is not one of the world's`).toBe(true);
  }
});
