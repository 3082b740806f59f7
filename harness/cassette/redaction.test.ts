import { expect, test } from '@playwright/test';
import type { Interaction } from './cassette-format.js';
import { isSecretQueryName } from '../secrets/secret-policy.js';
import { createRedactor } from './redaction.js';

// Characters that URL-encoding and base64 both change, so every form is distinct.
const CANARY = 'c4n@ry/S3cr3t+tok=n';
const forms = (s: string) => [
  s,
  encodeURIComponent(s),
  JSON.stringify(s).slice(1, -1),
  Buffer.from(s).toString('base64'),
  Buffer.from(s).toString('base64').replace(/=+$/, ''),
  Buffer.from(s).toString('base64url'),
];

function leaks(value: unknown, secret: string): string[] {
  const text = JSON.stringify(value);
  const found = forms(secret).filter((form) => text.includes(form));
  // Inline binary bodies: look inside the decoded bytes too.
  for (const b64 of text.match(/"base64":"([^"]*)"/g) ?? []) {
    const bytes = Buffer.from(JSON.parse(`{${b64}}`).base64, 'base64');
    found.push(
      ...forms(secret)
        .filter((form) => bytes.includes(Buffer.from(form)))
        .map((f) => `bytes:${f}`),
    );
  }
  return found;
}

const interaction = (seq: number, request: Interaction['request'], response: Interaction['response']): Interaction => ({
  seq,
  request,
  response,
});

function canaryInteractions(): Interaction[] {
  const basic = Buffer.from(`ada:${CANARY}`).toString('base64');
  return [
    interaction(
      1,
      {
        method: 'PUT',
        url: `/repos/o/r/secrets/X?access_token=${encodeURIComponent(CANARY)}&page=2`,
        headers: [
          ['authorization', `Bearer ${CANARY}`],
          ['proxy-authorization', `Basic ${basic}`],
          ['cookie', `theme=dark; session=${CANARY}`],
          ['content-type', 'application/json'],
        ],
        body: { json: { config: { nested: { encrypted_value: CANARY } }, vcs_password: CANARY, key_id: 'k1' } },
      },
      {
        status: 201,
        headers: [
          ['set-cookie', `session=${CANARY}; Path=/; HttpOnly`],
          ['set-cookie', `refresh=${CANARY}; Secure`],
          ['x-echo', `you sent ${CANARY}`],
          ['content-type', 'text/plain'],
          ['content-length', '999'],
        ],
        body: { text: `raw ${CANARY} url ${encodeURIComponent(CANARY)} b64 ${Buffer.from(CANARY).toString('base64')}` },
      },
    ),
    interaction(
      2,
      {
        method: 'POST',
        url: '/login',
        headers: [
          ['content-type', 'application/x-www-form-urlencoded'],
          ['x-api-key', CANARY],
        ],
        body: { text: `user=ada&password=${encodeURIComponent(CANARY)}` },
      },
      {
        status: 200,
        headers: [['content-type', 'application/octet-stream']],
        body: { base64: Buffer.concat([Buffer.from([0xff, 0x00]), Buffer.from(CANARY), Buffer.from([0xfe])]).toString('base64') },
      },
    ),
    interaction(
      3,
      { method: 'GET', url: '/echo', headers: [] },
      { status: 200, headers: [], body: { json: { token: CANARY, pretty: 'no' } } },
    ),
  ];
}

test('a canary secret in every redacted place appears nowhere in the result, in any encoding', () => {
  const redactor = createRedactor();
  const out = canaryInteractions().map((i) => redactor.redactInteraction(i));
  expect(leaks(out, CANARY)).toEqual([]);
  expect(out[0].request.headers[0]).toEqual(['authorization', 'Bearer <redacted>']);
  expect(out[0].request.headers[1]).toEqual(['proxy-authorization', 'Basic <redacted>']);
  expect(out[0].request.headers[2]).toEqual(['cookie', 'theme=<redacted>; session=<redacted>']);
  expect(out[0].request.url).toBe('/repos/o/r/secrets/X?access_token=%3Credacted%3E&page=2');
  expect(out[0].response.headers.slice(0, 2)).toEqual([
    ['set-cookie', 'session=<redacted>; Path=/; HttpOnly'],
    ['set-cookie', 'refresh=<redacted>; Secure'],
  ]);
  expect(out[0].response.body).toEqual({ text: 'raw <redacted> url %3Credacted%3E b64 <redacted>' });
  expect(out[0].response.headers.find(([k]) => k === 'content-length')?.[1]).toBe(
    String(Buffer.byteLength('raw <redacted> url %3Credacted%3E b64 <redacted>')),
  );
  expect(out[0].request.body).toEqual({
    json: { config: { nested: { encrypted_value: '<redacted>' } }, vcs_password: '<redacted>', key_id: 'k1' },
  });
  expect(out[1].request.body).toEqual({ text: 'user=ada&password=%3Credacted%3E' });
  expect(redactor.notes()).toEqual([
    'request.body',
    'request.body.$.config.nested.encrypted_value',
    'request.body.$.vcs_password',
    'request.body.form.password',
    'request.headers.authorization',
    'request.headers.cookie',
    'request.headers.proxy-authorization',
    'request.headers.x-api-key',
    'request.query.access_token',
    'response.body',
    'response.body.$.token',
    'response.headers.set-cookie',
    'response.headers.x-echo',
  ]);
  // Short values are hidden where a rule found them but not swept elsewhere.
  expect(redactor.replacements().some(([form]) => form === 'dark')).toBe(false);
  expect(redactor.replacements()[0][0].length).toBeGreaterThanOrEqual(redactor.replacements().at(-1)![0].length);
});

test('a secret first seen in a response is also removed from the same interaction’s request', () => {
  const redactor = createRedactor();
  const [out] = [
    interaction(
      1,
      { method: 'POST', url: '/x', headers: [], body: { text: `echo ${CANARY}` } },
      { status: 200, headers: [['set-cookie', `s=${CANARY}`]] },
    ),
  ].map((i) => redactor.redactInteraction(i));
  expect(out.request.body).toEqual({ text: 'echo <redacted>' });
});

test('a redacted body drops the stale wire bytes of the original', () => {
  const redactor = createRedactor({ secrets: { owner: CANARY } });
  const out = redactor.redactInteraction(
    interaction(
      1,
      { method: 'GET', url: '/', headers: [] },
      {
        status: 200,
        headers: [['content-encoding', 'gzip']],
        body: { text: CANARY, contentEncoding: 'gzip', encoded: { base64: 'AAAA' } },
      },
    ),
  );
  expect(out.response.body).toEqual({ text: '<secret:owner>', contentEncoding: 'gzip' });
});

test('configured secrets get <secret:NAME>, and restore brings back the exact bytes', () => {
  const secrets = { owner: 'ghp_owner0123456789', session: 'sess-abcdef-123456', imported: 'hunter2' };
  const redactor = createRedactor({ secrets });
  const original = interaction(
    1,
    {
      method: 'PATCH',
      url: `/repos/o/r/import?token=${secrets.owner}`,
      headers: [
        ['Authorization', `token ${secrets.owner}`],
        ['Cookie', `session=${secrets.session}`],
        ['content-type', 'application/json'],
      ],
      body: { json: { vcs_password: secrets.imported, note: `for ${secrets.owner}` } },
    },
    { status: 200, headers: [['Set-Cookie', `session=${secrets.session}; Path=/`]], body: { text: `{\n  "token": "${secrets.owner}"\n}` } },
  );
  const out = redactor.redactInteraction(original);
  expect(out.request.headers).toEqual([
    ['Authorization', 'token <secret:owner>'],
    ['Cookie', 'session=<secret:session>'],
    ['content-type', 'application/json'],
  ]);
  expect(out.request.url).toBe('/repos/o/r/import?token=%3Csecret%3Aowner%3E');
  expect(out.request.body).toEqual({ json: { vcs_password: '<secret:imported>', note: 'for <secret:owner>' } });
  expect(out.response.body).toEqual({ text: '{\n  "token": "<secret:owner>"\n}' });
  const text = JSON.stringify(out);
  for (const value of Object.values(secrets)) expect(text).not.toContain(value);
  expect(JSON.parse(redactor.restore(text))).toEqual(original);
  // Redacting the redacted result changes nothing.
  expect(createRedactor({ secrets }).redactInteraction(out)).toEqual(out);
});

test('redactRequest is deterministic: the same request twice gives the same key', () => {
  const redactor = createRedactor();
  const request = {
    method: 'GET',
    url: `/a?sig=${CANARY}`,
    headers: [['authorization', `Bearer ${CANARY}`]] as [string, string][],
    body: { text: CANARY },
  };
  const first = redactor.redactRequest(request);
  expect(redactor.redactRequest(request)).toEqual(first);
  expect(createRedactor().redactRequest(request)).toEqual(first);
  expect(first.body).toEqual({ text: '<redacted>' });
});

test('configured jsonPaths, body fields, headers and query keys are redacted', () => {
  const redactor = createRedactor({
    jsonPaths: ['$.items[*].note', '$.meta.ref'],
    bodyFields: ['pin'],
    headers: ['X-Session'],
    queryParams: ['who'],
  });
  const out = redactor.redactRequest({
    method: 'POST',
    url: '/q?who=ada&page=1',
    headers: [
      ['x-session', 'abc'],
      ['content-type', 'application/json'],
    ],
    body: { json: { items: [{ note: 'n1', keep: 'k' }, { note: 'n2' }], meta: { ref: { deep: 1 } }, deep: { pin: 1234 } } },
  });
  expect(out.url).toBe('/q?who=%3Credacted%3E&page=1');
  expect(out.headers[0]).toEqual(['x-session', '<redacted>']);
  expect(out.body).toEqual({
    json: { items: [{ note: '<redacted>', keep: 'k' }, { note: '<redacted>' }], meta: { ref: '<redacted>' }, deep: { pin: '<redacted>' } },
  });
  expect(redactor.notes()).toContain('request.body.$.items[*].note');
});

test('a bad secret name is a configuration error', () => {
  expect(() => createRedactor({ secrets: { 'has space': 'x' } })).toThrow(/secret name "has space"/);
});

test('query keys are secret by the words of their name, not by letters inside other words', () => {
  for (const name of [
    'access_token',
    'token',
    'api_key',
    'apiKey',
    'apikey',
    'X-Amz-Signature',
    'sig',
    'code',
    'client_secret',
    'password',
    'auth',
    'sessionId',
  ])
    expect(isSecretQueryName(name), name).toBe(true);
  for (const name of ['keyword', 'monkey', 'author', 'design', 'zipcode', 'encoding', 'page', 'per_page', 'ref', 'codec', 'tokenizer'])
    expect(isSecretQueryName(name), name).toBe(false);
  const redactor = createRedactor();
  const [out] = [
    redactor.redactRequest({
      method: 'GET',
      url: '/search?author=ada-lovelace-1815&keyword=analytical&api_key=k3y-0123456789',
      headers: [],
    }),
  ];
  expect(out.url).toBe('/search?author=ada-lovelace-1815&keyword=analytical&api_key=%3Credacted%3E');
});

test('a request with nothing to discover (no headers, query or body) still has known secrets swept from its path', () => {
  const redactor = createRedactor({ secrets: { ORG: 'org-9f8e7d6c' } });
  const plain = { method: 'GET', url: '/items/1', headers: [] };
  expect(redactor.redactRequest(plain)).toBe(plain);
  expect(redactor.redactRequest({ method: 'GET', url: '/orgs/org-9f8e7d6c/items', headers: [] }).url).toBe(
    '/orgs/%3Csecret%3AORG%3E/items',
  );
  expect(redactor.notes()).toEqual(['request.url']);
});

test('an OAuth token response keeps none of its tokens; what describes them stays readable', () => {
  const out = createRedactor().redactInteraction({
    seq: 1,
    request: {
      method: 'POST',
      url: '/login/oauth/access_token',
      headers: [['content-type', 'application/x-www-form-urlencoded']],
      body: { text: 'code=abc&client_secret=s3cr3t-client-value' },
    },
    response: {
      status: 200,
      headers: [['content-type', 'application/json']],
      body: {
        json: {
          access_token: 'gho_16C7e42F292c6912E7710c838347Ae178B4a',
          refresh_token: 'ghr_1B4a2e77838347a7E420ce178F2E7c6912E169246c34E1ccbF66C46812d16D5B1A9Dc86A1498',
          id_token: 'eyJhbGciOi.payload.sig',
          token_type: 'bearer',
          expires_in: 28800,
          scope: 'repo',
        },
      },
    },
  });
  expect(out.response.body).toEqual({
    json: {
      access_token: '<redacted>',
      refresh_token: '<redacted>',
      id_token: '<redacted>',
      token_type: 'bearer',
      expires_in: 28800,
      scope: 'repo',
    },
  });
});

test('JSON kept as text has its secret fields replaced where they stand, whatever their escapes, type or depth', () => {
  const redactText = (text: string, config: Parameters<typeof createRedactor>[0] = {}) => {
    const request = { method: 'POST', url: '/', headers: [['content-type', 'application/json']] as [string, string][], body: { text } };
    return (createRedactor(config).redactRequest(request).body as { text: string }).text;
  };
  // An escaped secret (PHP writes \/, Go \u003c) is still the field's value.
  expect(redactText('{"access_token": "ya29.a0Af\\/H6Xq+secretZZ"}')).toBe('{"access_token": "<redacted>"}');
  expect(redactText('{"token": "\\u003cp\\u003e-pw"}')).toBe('{"token": "<redacted>"}');
  // A number, and an object at a configured path, are replaced too; the layout stays.
  expect(redactText('{\n  "password": 123456\n}')).toBe('{\n  "password": "<redacted>"\n}');
  expect(redactText('{\n  "card": {"number": "4111111111111111"}\n}', { jsonPaths: ['$.card'] })).toBe('{\n  "card": "<redacted>"\n}');
  // Only the value: a key (or another value) equal to a short secret stays.
  expect(redactText('{ "token": "id", "id": "user" }')).toBe('{ "token": "<redacted>", "id": "user" }');
  // Deeper than a recursive walk goes.
  const deep = `${'{"a":'.repeat(20_000)}{"password":"hunter2"}${'}'.repeat(20_000)}`;
  expect(redactText(deep)).toBe(`${'{"a":'.repeat(20_000)}{"password":"<redacted>"}${'}'.repeat(20_000)}`);
});

test('a configured jsonPath naming array elements redacts them in a JSON body as it does in a streamed one', () => {
  const redactor = createRedactor({ jsonPaths: ['$.tokens[*]', '$.pairs[1]'] });
  const out = redactor.redactRequest({
    method: 'POST',
    url: '/',
    headers: [],
    body: { json: { tokens: ['abcdefghijklmnop', 42], pairs: ['keep', 'hide'] } },
  });
  expect(out.body).toEqual({ json: { tokens: ['<redacted>', '<redacted>'], pairs: ['keep', '<redacted>'] } });
  expect(redactor.notes()).toEqual(expect.arrayContaining(['request.body.$.tokens[*]', 'request.body.$.pairs[*]']));
});
