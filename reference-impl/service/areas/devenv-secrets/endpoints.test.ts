// Endpoints 19–23 of spec 2: development-environment secrets of octo-org/widgets (monalisa
// admin, wanstrath maintain, defunkt write, mojombo read), sealed with libsodium-wrappers
// exactly as a client seals them.
import sodium from 'libsodium-wrappers';
import { expect, expectErrorBody, test } from '../../service.fixture.js';

const S = '/repos/octo-org/widgets/devenv/secrets';
const admin = { as: 'repo-admin' };
const VALUE = 'hunter2-do-not-leak';

async function seal(message: string, publicKey: string): Promise<string> {
  await sodium.ready;
  return Buffer.from(sodium.crypto_box_seal(Buffer.from(message), Buffer.from(publicKey, 'base64'))).toString('base64');
}

test('public key: key_id and a Base64 32-byte key, the same every run until rotated', async ({ api }) => {
  const key = (await api.get(`${S}/public-key`, admin)).json();
  expect(key.key_id).toMatch(/^\d{18}$/);
  expect(Buffer.from(key.key, 'base64')).toHaveLength(32);
  const rotated = await api.call('POST', '/_conformance/secret-keys/rotate', { body: { repository: 'octo-org/widgets' } });
  expect(rotated.json().key_id).not.toBe(key.key_id);
  expect((await api.get(`${S}/public-key`, admin)).json().key_id).toBe(rotated.json().key_id);
  await api.call('POST', '/_conformance/reset', { body: {} });
  expect((await api.get(`${S}/public-key`, admin)).json()).toEqual(key);
});

test('PUT a sealed value: 201, then 204; listed and served by name, never with the value; DELETE 204', async ({ api }) => {
  const key = (await api.get(`${S}/public-key`, admin)).json();
  const body = { encrypted_value: await seal(VALUE, key.key), key_id: key.key_id };
  const created = await api.call('PUT', `${S}/db_password`, { ...admin, body });
  expect(created.statusCode).toBe(201);
  expect(created.body).toBe('');
  await api.advance(60);
  expect((await api.call('PUT', `${S}/DB_PASSWORD`, { ...admin, body })).statusCode).toBe(204);
  const secret = await api.get(`${S}/Db_Password`, admin);
  expect(secret.json()).toEqual({
    name: 'DB_PASSWORD',
    created_at: '2026-06-01T12:00:00Z',
    updated_at: '2026-06-01T12:01:00Z',
    visibility: 'all',
  });
  const list = await api.get(S, admin);
  expect(list.json()).toEqual({ total_count: 1, secrets: [secret.json()] });
  for (const response of [created, secret, list]) expect(response.body).not.toContain(body.encrypted_value);
  expect((await api.call('DELETE', `${S}/db_password`, admin)).statusCode).toBe(204);
  expectErrorBody(await api.get(`${S}/DB_PASSWORD`, admin), 404);
});

test('422: a stale key_id, another key, not Base64, not a sealed box, a bad name, a value over 48 KiB; never echoing the value', async ({
  api,
}) => {
  const key = (await api.get(`${S}/public-key`, admin)).json();
  await sodium.ready;
  const other = Buffer.from(sodium.crypto_box_keypair().publicKey).toString('base64');
  const sealed = await seal(VALUE, key.key);
  const refused = [
    { encrypted_value: sealed, key_id: '000000000000000001' },
    { encrypted_value: await seal(VALUE, other), key_id: key.key_id },
    { encrypted_value: 'not base64!', key_id: key.key_id },
    { encrypted_value: Buffer.from('just some bytes, no box').toString('base64'), key_id: key.key_id },
    { encrypted_value: await seal('x'.repeat(48 * 1024 + 1), key.key), key_id: key.key_id },
  ];
  for (const body of refused) {
    const response = await api.call('PUT', `${S}/TOKEN`, { ...admin, body });
    expectErrorBody(response, 422);
    expect(response.body).not.toContain(VALUE);
    expect(response.body).not.toContain(body.encrypted_value.slice(0, 40));
  }
  expectErrorBody(await api.call('PUT', `${S}/1BAD`, { ...admin, body: { encrypted_value: sealed, key_id: key.key_id } }), 422);
  expectErrorBody(await api.call('PUT', `${S}/TOKEN`, { ...admin, body: { encrypted_value: sealed } }), 422);
  // After a rotation the old key_id is stale, and a box sealed to the old key no longer opens.
  await api.call('POST', '/_conformance/secret-keys/rotate', { body: { repository: 'octo-org/widgets' } });
  const fresh = (await api.get(`${S}/public-key`, admin)).json();
  const field = async (body: object) =>
    (expectErrorBody(await api.call('PUT', `${S}/TOKEN`, { ...admin, body }), 422).errors as { field: string }[])[0].field;
  expect(await field({ encrypted_value: sealed, key_id: key.key_id })).toBe('key_id');
  expect(await field({ encrypted_value: sealed, key_id: fresh.key_id })).toBe('encrypted_value');
  expect((await api.get(S, admin)).json().total_count).toBe(0);
});

test('who may: reads for writers (by default), PUT and DELETE for admins; repo scope; the devenv_secrets permission at write', async ({
  api,
}) => {
  expect((await api.get(S, { as: 'repo-writer' })).statusCode).toBe(200);
  expectErrorBody(await api.get(S, { as: 'repo-reader' }), 403);
  expectErrorBody(await api.get(S), 401);
  expectErrorBody(await api.get(S, { as: 'admin-public-repo-scope' }), 403);
  expect((await api.get(`${S}/public-key`, { as: 'fine-grained-devenv-secrets' })).statusCode).toBe(200);
  expectErrorBody(await api.get(`${S}/public-key`, { as: 'fine-grained-devenv-secrets-reader' }), 403);
  const key = (await api.get(`${S}/public-key`, admin)).json();
  const body = { encrypted_value: await seal(VALUE, key.key), key_id: key.key_id };
  expectErrorBody(await api.call('PUT', `${S}/X`, { as: 'repo-maintainer', body }), 403);
  expect((await api.call('PUT', `${S}/X`, { as: 'fine-grained-devenv-secrets', body })).statusCode).toBe(201);
  expectErrorBody(await api.call('DELETE', `${S}/X`, { as: 'repo-writer' }), 403);
  expectErrorBody(await api.get('/repos/octo-org/vault/devenv/secrets', { as: 'outsider' }), 404);
});

test('secrets.reads-any-role: whoever can see the repository reads, with scope repo or the permission; writes stay with admins', async ({
  api,
}) => {
  await api.vary('secrets.reads-any-role');
  expect((await api.get(S, { as: 'repo-reader' })).statusCode).toBe(200);
  expect((await api.get(`${S}/public-key`, { as: 'outsider' })).statusCode).toBe(200);
  expectErrorBody(await api.get('/repos/octo-org/vault/devenv/secrets', { as: 'outsider' }), 404);
  expectErrorBody(await api.get(S, { as: 'admin-public-repo-scope' }), 403);
  expectErrorBody(await api.get(`${S}/public-key`, { as: 'fine-grained-devenv-secrets-reader' }), 403);
  const key = (await api.get(`${S}/public-key`, admin)).json();
  const body = { encrypted_value: await seal(VALUE, key.key), key_id: key.key_id };
  expectErrorBody(await api.call('PUT', `${S}/X`, { as: 'repo-reader', body }), 403);
});

test('secrets.unsealed-stored: any encrypted_value is kept as it came (201, then 204); key_id is still checked', async ({ api }) => {
  await api.vary('secrets.unsealed-stored');
  const key = (await api.get(`${S}/public-key`, admin)).json();
  expect((await api.call('PUT', `${S}/TOKEN`, { ...admin, body: { encrypted_value: 'not base64!', key_id: key.key_id } })).statusCode).toBe(
    201,
  );
  const noBox = Buffer.from('just some bytes, no box').toString('base64');
  expect((await api.call('PUT', `${S}/TOKEN`, { ...admin, body: { encrypted_value: noBox, key_id: key.key_id } })).statusCode).toBe(204);
  const secret = await api.get(`${S}/TOKEN`, admin);
  expect(secret.json().name).toBe('TOKEN');
  expect(secret.body).not.toContain(noBox);
  expectErrorBody(await api.call('PUT', `${S}/TOKEN`, { ...admin, body: { encrypted_value: noBox, key_id: '000000000000000001' } }), 422);
});

test('secrets.key-id-advisory: a value that opens with the current key is taken whatever key_id comes with it', async ({ api }) => {
  await api.vary('secrets.key-id-advisory');
  const key = (await api.get(`${S}/public-key`, admin)).json();
  await api.call('POST', '/_conformance/secret-keys/rotate', { body: { repository: 'octo-org/widgets' } });
  const fresh = (await api.get(`${S}/public-key`, admin)).json();
  const stale = { encrypted_value: await seal(VALUE, fresh.key), key_id: key.key_id };
  const stored = await api.call('PUT', `${S}/TOKEN`, { ...admin, body: stale });
  expect(stored.statusCode).toBe(201);
  // A box for the replaced key no longer opens, whichever key_id it names.
  expectErrorBody(
    await api.call('PUT', `${S}/TOKEN`, { ...admin, body: { encrypted_value: await seal(VALUE, key.key), key_id: fresh.key_id } }),
    422,
  );
});

test('secrets.value-placeholder: a secret shows value null, never the value', async ({ api }) => {
  const key = (await api.get(`${S}/public-key`, admin)).json();
  const body = { encrypted_value: await seal(VALUE, key.key), key_id: key.key_id };
  expect((await api.call('PUT', `${S}/TOKEN`, { ...admin, body })).statusCode).toBe(201);
  expect((await api.get(`${S}/TOKEN`, admin)).json()).not.toHaveProperty('value');
  await api.vary('secrets.value-placeholder');
  const secret = await api.get(`${S}/TOKEN`, admin);
  expect(secret.json()).toMatchObject({ name: 'TOKEN', value: null });
  expect((await api.get(S, admin)).json().secrets[0].value).toBeNull();
  expect(secret.body).not.toContain(body.encrypted_value);
});
