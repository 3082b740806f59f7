// Templates as cases write them: captures, $list, the Base64 and sealed-box helpers, and
// the load-time lint that catches a name no step binds before a run starts.
import { expect, test } from '@playwright/test';
import sodium from 'libsodium-wrappers';
import { HarnessError } from '../core/errors.js';
import { interpolate, templateProblems } from './interpolate.js';

test('captures fill strings anywhere in a template; $list becomes the list; other values pass unchanged', async () => {
  const filled = await interpolate(
    { url: '${location}', headers: { 'If-None-Match': '${etag}' }, body: { labels: '$list', n: 3, keep: null } },
    { values: { location: 'http://h/x?sig=1', etag: '"abc"' }, list: ['a', 'b'] },
  );
  expect(filled).toEqual({
    url: 'http://h/x?sig=1',
    headers: { 'If-None-Match': '"abc"' },
    body: { labels: ['a', 'b'], n: 3, keep: null },
  });
  await expect(interpolate({ path: '/x/${missing}' }, { values: {} })).rejects.toThrow(HarnessError);
  await expect(interpolate({ body: '$list' }, { values: {} })).rejects.toThrow(/\$list used outside a limits case/);
});

test('$base64 encodes the UTF-8 text after its captures are filled in', async () => {
  const body = await interpolate({ content: { $base64: 'héllo ${name}\n' } }, { values: { name: 'world' } });
  expect(body).toEqual({ content: Buffer.from('héllo world\n').toString('base64') });
});

test('$sealed_box seals the message for the public key: the holder of the secret key opens it, nobody else can', async () => {
  await sodium.ready;
  const keys = sodium.crypto_box_keypair();
  const publicKey = Buffer.from(keys.publicKey).toString('base64');
  const template = { encrypted_value: { $sealed_box: { public_key: '${key}', message: 'the secret' } }, key_id: '${key_id}' };
  const body = await interpolate(template, { values: { key: publicKey, key_id: '42' } });
  expect(body.key_id).toBe('42');
  const sealed = Buffer.from(body.encrypted_value as unknown as string, 'base64');
  expect(sealed.length).toBe('the secret'.length + sodium.crypto_box_SEALBYTES);
  expect(Buffer.from(sodium.crypto_box_seal_open(sealed, keys.publicKey, keys.privateKey)).toString()).toBe('the secret');
  const other = sodium.crypto_box_keypair();
  expect(() => sodium.crypto_box_seal_open(sealed, other.publicKey, other.privateKey)).toThrow();
  // Two seals of one message differ (an ephemeral key each time).
  const again = await interpolate(template, { values: { key: publicKey, key_id: '42' } });
  expect(again.encrypted_value).not.toEqual(body.encrypted_value);
  await expect(interpolate(template, { values: { key: 'bm90IGEga2V5', key_id: '1' } })).rejects.toThrow(/not a Base64 32-byte key/);
});

test('the lint names references nothing binds, $list outside limits, unknown helpers and bad helper arguments', () => {
  const bound = { names: new Set(['etag']), list: false };
  expect(templateProblems({ headers: { 'If-None-Match': '${etag}' } }, bound)).toEqual([]);
  expect(
    templateProblems(
      {
        url: '${location}',
        body: { a: '$list', b: { $base64: 3 }, c: { $sealed_box: { public_key: 'k' } }, d: { $sha1: 'x' }, e: { $base64: 'ok' } },
      },
      bound,
    ),
  ).toEqual([
    '${location} is not captured by an earlier step',
    '$list is only bound in a limits case',
    'helper $base64 takes a string',
    'helper $sealed_box takes { public_key: <Base64>, message: <text> }',
    'helper $sha1 unknown (known: $base64, $sealed_box)',
  ]);
});
