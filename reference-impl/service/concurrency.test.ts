// Parallel writes to every mutable resource of the reference: requests sent at once (their
// handlers interleave at every await, as they do on sockets), then the state read back. No
// write that was acknowledged may be lost, nothing may be half-written, and where only one
// of several can win (a name, one import per repository, a branch being written) the others
// get the spec's conflict or validation answer, never a 5xx.
import sodium from 'libsodium-wrappers';
import { expect, test } from './service.fixture.js';

const N = 12;
const b64 = (text: string) => Buffer.from(text).toString('base64');
const statuses = (responses: { statusCode: number }[]) => responses.map((r) => r.statusCode).sort();

test('variables: distinct names all kept; one name created at once wins once, the rest 409', async ({ api }) => {
  const V = '/orgs/octo-org/actions/variables';
  const owner = { as: 'org-owner' };
  const distinct = await Promise.all(
    Array.from({ length: N }, (_, i) => api.call('POST', V, { ...owner, body: { name: `PAR_${i}`, value: `v${i}`, visibility: 'all' } })),
  );
  expect(statuses(distinct)).toEqual(Array(N).fill(201));
  const same = await Promise.all(
    Array.from({ length: N }, (_, i) => api.call('POST', V, { ...owner, body: { name: 'ONE_NAME', value: `v${i}`, visibility: 'all' } })),
  );
  expect(statuses(same)).toEqual([201, ...Array(N - 1).fill(409)]);
  const listed = (await api.get(`${V}?per_page=100`, owner)).json() as { variables: { name: string; value: string }[] };
  for (let i = 0; i < N; i++) expect(listed.variables).toContainEqual(expect.objectContaining({ name: `PAR_${i}`, value: `v${i}` }));
  // The winner's value, whole.
  const winner = same.findIndex((r) => r.statusCode === 201);
  expect((await api.get(`${V}/ONE_NAME`, owner)).json()).toMatchObject({ name: 'ONE_NAME', value: `v${winner}` });

  // Updates of one variable at once: each acknowledged, the last one applied is what stays, whole.
  const updates = await Promise.all(
    Array.from({ length: N }, (_, i) => api.call('PATCH', `${V}/PAR_0`, { ...owner, body: { value: `u${i}` } })),
  );
  expect(statuses(updates)).toEqual(Array(N).fill(204));
  expect((await api.get(`${V}/PAR_0`, owner)).json().value).toMatch(/^u\d+$/);
});

test('contents: files written at once on one branch are each either committed and kept, or refused 409; none is lost', async ({ api }) => {
  const writes = await Promise.all(
    Array.from({ length: N }, (_, i) =>
      api.call('PUT', `/repos/octo-org/widgets/contents/parallel/file-${i}.txt`, {
        as: 'repo-writer',
        body: { message: `Add ${i}`, content: b64(`content ${i}\n`) },
      }),
    ),
  );
  for (const w of writes) expect([201, 409]).toContain(w.statusCode);
  expect(writes.some((w) => w.statusCode === 201)).toBe(true);
  for (const [i, w] of writes.entries()) {
    const read = await api.get(`/repos/octo-org/widgets/contents/parallel/file-${i}.txt`, { as: 'repo-writer' });
    if (w.statusCode === 201) {
      expect(read.statusCode, `file-${i} was acknowledged`).toBe(200);
      expect(Buffer.from(read.json().content, 'base64').toString()).toBe(`content ${i}\n`);
    } else expect(read.statusCode, `file-${i} was refused`).toBe(404);
  }
  // The branch's history holds exactly the acknowledged commits, each once.
  const committed = writes.filter((w) => w.statusCode === 201).map((w) => w.json().commit.sha as string);
  expect(new Set(committed).size).toBe(committed.length);
});

test('assignees: additions to one issue at once all land', async ({ api }) => {
  const issue = '/repos/octo-org/crowd/issues/1/assignees';
  // Removing someone never assigned changes nothing and answers the issue: a read.
  const assigned = async () =>
    (
      (await api.call('DELETE', issue, { as: 'repo-admin', body: { assignees: ['nobody-assigned'] } })).json().assignees as {
        login: string;
      }[]
    ).map((u) => u.login.toLowerCase());
  const before = await assigned();
  const candidates = ((await api.get('/repos/octo-org/crowd/assignees?per_page=100', { as: 'repo-admin' })).json() as { login: string }[])
    .map((u) => u.login.toLowerCase())
    .filter((login) => !before.includes(login))
    .slice(0, 10 - before.length);
  expect(candidates.length).toBeGreaterThan(1);
  const added = await Promise.all(candidates.map((login) => api.call('POST', issue, { as: 'repo-admin', body: { assignees: [login] } })));
  expect(statuses(added)).toEqual(Array(candidates.length).fill(201));
  expect((await assigned()).sort()).toEqual([...before, ...candidates].sort());
});

test('interaction limits: settings at once each acknowledged; what stays is one of them, whole', async ({ api }) => {
  const L = '/repos/octo-org/widgets/interaction-limits';
  const limits = ['existing_users', 'contributors_only', 'collaborators_only'];
  const expiries = ['one_day', 'three_days', 'one_week'];
  const sets = await Promise.all(
    Array.from({ length: N }, (_, i) => api.call('PUT', L, { as: 'repo-admin', body: { limit: limits[i % 3], expiry: expiries[i % 3] } })),
  );
  expect(statuses(sets)).toEqual(Array(N).fill(200));
  const now = (await api.get(L, { as: 'repo-admin' })).json() as { limit: string; expires_at: string };
  const answered = sets.map((s) => s.json() as { limit: string; expires_at: string });
  // Limit and expiry from the same request: never the limit of one and the expiry of another.
  expect(answered).toContainEqual(expect.objectContaining({ limit: now.limit, expires_at: now.expires_at }));
});

test('secrets: distinct secrets written at once are all kept', async ({ api }) => {
  const S = '/repos/octo-org/widgets/devenv/secrets';
  const admin = { as: 'repo-admin' };
  const key = (await api.get(`${S}/public-key`, admin)).json() as { key: string; key_id: string };
  await sodium.ready;
  const seal = (value: string) =>
    Buffer.from(sodium.crypto_box_seal(Buffer.from(value), Buffer.from(key.key, 'base64'))).toString('base64');
  const puts = await Promise.all(
    Array.from({ length: N }, (_, i) =>
      api.call('PUT', `${S}/PAR_${i}`, { ...admin, body: { encrypted_value: seal(`s${i}`), key_id: key.key_id } }),
    ),
  );
  expect(statuses(puts)).toEqual(Array(N).fill(201));
  const names = ((await api.get(`${S}?per_page=100`, admin)).json() as { secrets: { name: string }[] }).secrets.map((s) => s.name);
  for (let i = 0; i < N; i++) expect(names).toContain(`PAR_${i}`);
});

test('assistant seats: users added at once each get one seat', async ({ api }) => {
  const users = '/orgs/octo-org/assistant/billing/selected_users';
  const members = ['hubot', 'mojombo', 'defunkt', 'wanstrath'];
  const added = await Promise.all(
    members.map((login) => api.call('POST', users, { as: 'org-owner', body: { selected_usernames: [login] } })),
  );
  for (const a of added) expect(a.statusCode, a.body).toBe(201);
  const seats = (await api.get('/orgs/octo-org/assistant/billing/seats?per_page=100', { as: 'org-owner' })).json() as {
    seats: { assignee: { login: string } }[];
  };
  for (const login of members)
    expect(
      seats.seats.filter((s) => s.assignee.login === login),
      login,
    ).toHaveLength(1);
});

test('source imports: one import per repository, whoever starts it at once; the others 422', async ({ api }) => {
  // Before the service retired source imports (2024-04-12).
  await api.call('POST', '/_conformance/clock', { body: { set: '2024-03-01T00:00:00Z' } });
  const starts = await Promise.all(
    Array.from({ length: N }, () =>
      api.call('PUT', '/repos/octocat/hello-world/import', {
        as: 'user-owner',
        body: { vcs_url: 'https://svn.example.org/widgets/trunk' },
      }),
    ),
  );
  expect(statuses(starts), starts.map((s) => s.body.slice(0, 120)).join('\n')).toEqual([201, ...Array(N - 1).fill(422)]);
  expect((await api.get('/repos/octocat/hello-world/import', { as: 'user-owner' })).statusCode).toBe(200);
});
