// X-Service-Request-Id: on every answer, errors included, distinct within a case, the same
// again after a reset (so recordings of the reference stay byte-identical), and visible to a
// real client's error.
import { RequestError } from '@octokit/request-error';
import { expect, test } from './octokit.fixture.js';
import { CLIENT_REQUEST_ID_HEADER, createRequestIds, REQUEST_ID_HEADER } from './request-ids.js';

const ID = /^[0-9A-F]{4}:[0-9A-F]{4}:[0-9A-F]{6}:[0-9A-F]{6}$/;

test('every answer carries a request id, errors included, and no two requests of a case share one', async ({ api }) => {
  const answers = [
    await api.get('/repos/octo-org/widgets/assignees'),
    await api.get('/repos/octo-org/widgets/assignees'),
    await api.get('/no/such/route'),
    await api.get('/repos/octo-org/widgets/assignees', { headers: { authorization: 'Bearer nope_nope' } }),
    await api.get('/repos/octo-org/widgets/assignees', { headers: { accept: 'text/html' } }),
    await api.call('PUT', '/repos/octo-org/widgets/interaction-limits', { raw: '{bad' }),
  ];
  expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 404, 401, 415, 401]);
  const ids = answers.map((a) => a.headers[REQUEST_ID_HEADER]);
  for (const id of ids) expect(id).toMatch(ID);
  expect(new Set(ids).size).toBe(ids.length);
});

test('after a reset the same requests get the same ids again', async ({ api }) => {
  const story = async () => {
    expect((await api.call('POST', '/_conformance/reset', { body: {} })).statusCode).toBe(204);
    const ids = [];
    for (const url of ['/repos/octo-org/widgets/assignees', '/repos/octo-org/widgets/assignees', '/no/such/route'])
      ids.push((await api.get(url)).headers[REQUEST_ID_HEADER]);
    return ids;
  };
  const first = await story();
  expect(await story()).toEqual(first);
});

test('copies of one request named by the client get the same ids whichever arrives first', async ({ api }) => {
  const url = '/repos/octo-org/widgets/assignees';
  // In flight at once, copies reach the service in no fixed order: here they come in both orders.
  const idsOf = async (order: string[]) => {
    expect((await api.call('POST', '/_conformance/reset', { body: {} })).statusCode).toBe(204);
    const ids: Record<string, string> = {};
    for (const name of order)
      ids[name] = (await api.get(url, { headers: { [CLIENT_REQUEST_ID_HEADER]: name } })).headers[REQUEST_ID_HEADER] as string;
    return ids;
  };
  const forwards = await idsOf(['parallel-copy-1', 'parallel-copy-2', 'parallel-copy-3']);
  expect(await idsOf(['parallel-copy-3', 'parallel-copy-1', 'parallel-copy-2'])).toEqual(forwards);
  expect(new Set(Object.values(forwards)).size).toBe(3);
  // Unnamed requests still count in arrival order, and a name the service cannot use is ignored.
  expect((await api.call('POST', '/_conformance/reset', { body: {} })).statusCode).toBe(204);
  const unnamed = (await api.get(url)).headers[REQUEST_ID_HEADER];
  expect((await api.call('POST', '/_conformance/reset', { body: {} })).statusCode).toBe(204);
  expect((await api.get(url, { headers: { [CLIENT_REQUEST_ID_HEADER]: 'not a usable name!' } })).headers[REQUEST_ID_HEADER]).toBe(unnamed);
  expect(Object.values(forwards)).not.toContain(unnamed);
});

test('a real client sees the id on an error', async ({ octokit }) => {
  const error = await octokit('anonymous')
    .rest.repos.get({ owner: 'octo-org', repo: 'no-such-repository' })
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RequestError);
  expect((error as RequestError).response?.headers[REQUEST_ID_HEADER]).toMatch(ID);
});

test("the ids of one request differ occurrence after occurrence, and differ from another request's", () => {
  const ids = createRequestIds();
  const many = Array.from({ length: 20_000 }, () => ids.next('GET', '/repos/octo-org/widgets/assignees'));
  for (const id of many.slice(0, 100)) expect(id).toMatch(ID);
  expect(new Set(many).size).toBe(many.length);
  const other = ids.next('GET', '/repos/octo-org/widgets/assignees?page=2');
  expect(many).not.toContain(other);
  ids.reset();
  expect(ids.next('GET', '/repos/octo-org/widgets/assignees')).toBe(many[0]);
});
