// The endpoints the suites name (suites/endpoints/*.yaml) are the reference's, as its
// definitions declare them: same ids, spec numbers, methods and paths.
import { expect, test } from '@playwright/test';
import { specPath } from '../../reference-impl/service/endpoint.js';
import { allEndpoints } from '../../reference-impl/service/generated-files.js';
import { loadEndpointAliases } from '../suite/endpoint-aliases.js';

test('suites/endpoints lists exactly the endpoints the reference service defines', () => {
  const reference = allEndpoints().map(({ id, spec, method, path }) => ({
    id,
    spec: `${spec.document}.${spec.number}`,
    method,
    path: specPath(path),
  }));
  const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
  const listed = [...loadEndpointAliases().values()].map(({ id, spec, method, path }) => ({ id, spec, method, path }));
  expect(listed.sort(byId)).toEqual(reference.sort(byId));
});
