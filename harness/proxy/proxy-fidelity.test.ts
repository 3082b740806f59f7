// Issue 3, "Done when": what a client sees through the recording proxy and what it sees
// from the replaying proxy are equal (status, ordered headers, body SHA-256) for every
// kind of response, replay opens no upstream connection, and no secret reaches a file.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createProxy } from './proxy-server.js';
import { useProxyTestBed, type TestRequest } from '../../test-support/proxy-test-client.js';

const COOKIE_SECRETS = { theme: 't-91c2d7', lang: 'l-55e0aa', session: 's3cr3t-session' };

const EXCHANGES: (TestRequest & { title: string })[] = [
  { title: 'gzip', path: '/gzip', headers: [['Accept-Encoding', 'gzip']] },
  { title: 'br', path: '/br' },
  { title: 'deflate', path: '/deflate' },
  { title: 'gzip not made by node defaults', path: '/gzip-level1' },
  { title: 'chunked framing', path: '/chunked' },
  { title: 'content-length framing', path: '/length' },
  { title: '1 MiB of random binary', path: '/binary' },
  { title: 'invalid UTF-8 labelled text', path: '/invalid-utf8' },
  { title: 'JSON with 2^63-1', path: '/big-int' },
  { title: '204', method: 'DELETE', path: '/no-content' },
  { title: '304', path: '/etag', headers: [['If-None-Match', '"v1"']] },
  { title: 'HEAD', method: 'HEAD', path: '/length' },
  { title: 'several Set-Cookie', path: '/cookies' },
  { title: '404', path: '/missing' },
  {
    title: 'binary request body',
    method: 'POST',
    path: '/echo',
    headers: [['Content-Type', 'application/octet-stream']],
    body: Buffer.from([0, 255, 1, 254]),
  },
];
const bed = useProxyTestBed();

function allFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? allFiles(full) : [full];
  });
}

test('a replayed response is byte-for-byte the recorded one, and replay never connects upstream', async () => {
  const cassette = path.join(bed.dir, 'fidelity.cassette.json');
  const recorder = await createProxy({ mode: 'record', target: bed.fixture.url, cassette, redaction: { secrets: COOKIE_SECRETS } });
  const live = [];
  for (const exchange of EXCHANGES) live.push(await bed.client.send(recorder.url, exchange));
  await recorder.close();

  const stored = readFileSync(cassette, 'utf8');
  for (const value of Object.values(COOKIE_SECRETS)) expect(stored).not.toContain(value);

  const connectionsBefore = bed.fixture.connections();
  const replayer = await createProxy({ mode: 'replay', target: bed.fixture.url, cassette, redaction: { secrets: COOKIE_SECRETS } });
  for (const [i, exchange] of EXCHANGES.entries()) {
    const replayed = await bed.client.send(replayer.url, exchange);
    expect.soft({ status: replayed.status, headers: replayed.headers, sha256: replayed.sha256 }, exchange.title).toEqual({
      status: live[i].status,
      headers: live[i].headers,
      sha256: live[i].sha256,
    });
  }
  const { summary } = await replayer.close();
  expect(summary.misses).toEqual([]);
  expect(bed.fixture.connections()).toBe(connectionsBefore);
});

test('the cassette stores bodies readably: decoded JSON, text, sidecar for big binary, no per-entry timing', async () => {
  const cassette = path.join(bed.dir, 'readable.cassette.json');
  const recorder = await createProxy({ mode: 'record', target: bed.fixture.url, cassette });
  for (const p of ['/gzip', '/big-int', '/binary', '/gzip-level1']) await bed.client.send(recorder.url, { path: p });
  await recorder.close();
  const parsed = JSON.parse(readFileSync(cassette, 'utf8'));
  const [gzip, bigInt, binary, level1] = parsed.interactions.map((i: { response: { body: Record<string, unknown> } }) => i.response.body);
  expect(gzip).toMatchObject({ contentEncoding: 'gzip', json: { coding: 'gzip' } });
  expect(gzip.encoded).toBeUndefined();
  expect(bigInt).toEqual({ text: '{"max":9223372036854775807,"min":-9223372036854775808}' });
  expect(binary).toMatchObject({ size: 1024 * 1024 });
  expect(String(binary.file)).toMatch(/^readable\.blobs\/sha256-[0-9a-f]{64}$/);
  expect(level1).toMatchObject({ contentEncoding: 'gzip', text: 'level one '.repeat(500) });
  expect(level1.encoded).toBeDefined();
  expect(Object.keys(parsed.interactions[0])).toEqual(['seq', 'request', 'response']);
});

test('recording the same traffic twice gives a byte-identical cassette', async () => {
  const cassette = path.join(bed.dir, 'twice.cassette.json');
  const record = async () => {
    const recorder = await createProxy({ mode: 'record', target: bed.fixture.url, cassette });
    await Promise.all(['/gzip', '/length', '/cookies', '/big-int'].map((p) => bed.client.send(recorder.url, { path: p })));
    await bed.client.send(recorder.url, { path: '/redirect' });
    await recorder.close();
    return readFileSync(cassette);
  };
  const first = await record();
  const second = await record();
  // Concurrent requests may start in either order; the file is the same only when they did.
  const order = (b: Buffer) =>
    JSON.parse(b.toString())
      .interactions.map((i: { request: { url: string } }) => i.request.url)
      .join();
  if (order(first) === order(second)) expect(second.equals(first)).toBe(true);
  expect(first.toString()).not.toContain(bed.fixture.url);
});

test('a canary secret sent in every redacted place appears in no file written', async () => {
  const canary = 'canary-Zx81-secret';
  const forms = [canary, encodeURIComponent(canary), Buffer.from(canary).toString('base64'), Buffer.from(canary).toString('base64url')];
  const recorder = await createProxy({ mode: 'record', target: bed.fixture.url, cassette: path.join(bed.dir, 'canary.cassette.json') });
  const auth: [string, string][] = [
    ['Authorization', `Bearer ${canary}`],
    ['Proxy-Authorization', `Basic ${canary}`],
    ['Cookie', `sid=${canary}; other=1`],
    ['X-Api-Key', canary],
  ];
  const echoed = JSON.stringify({
    encrypted_value: canary,
    nested: { vcs_password: canary },
    note: `raw ${canary} url ${forms[1]} b64 ${forms[2]}`,
  });
  await bed.client.send(recorder.url, {
    method: 'PUT',
    path: `/echo?access_token=${canary}&page=1`,
    headers: [...auth, ['Content-Type', 'application/json']],
    body: echoed,
  });
  await bed.client.send(recorder.url, {
    method: 'POST',
    path: '/echo',
    headers: [...auth, ['Content-Type', 'application/x-www-form-urlencoded']],
    body: `vcs_password=${canary}&x=1`,
  });
  const big = `${'x'.repeat(2 * 1024 * 1024)} ${canary} ${forms[2]} ${'y'.repeat(1024)}`;
  await bed.client.send(recorder.url, { method: 'POST', path: '/echo', headers: [...auth, ['Content-Type', 'text/plain']], body: big });
  await recorder.close();
  const files = allFiles(bed.dir);
  expect(files.some((f) => f.includes('.blobs'))).toBe(true);
  for (const file of files) {
    const content = readFileSync(file, 'latin1');
    for (const form of forms) expect(content.includes(form), `${form} in ${path.relative(bed.dir, file)}`).toBe(false);
  }
});

test('redirects are recorded hop by hop and Location points back at the proxy', async () => {
  const cassette = path.join(bed.dir, 'redirect.cassette.json');
  const recorder = await createProxy({ mode: 'record', target: bed.fixture.url, cassette });
  const live = await bed.client.send(recorder.url, { path: '/redirect' });
  expect(live.status).toBe(302);
  expect(bed.client.header(live, 'location')).toBe(`${recorder.url}/length`);
  await bed.client.send(recorder.url, { path: '/length' });
  await recorder.close();
  expect(JSON.parse(readFileSync(cassette, 'utf8')).interactions).toHaveLength(2);

  const replayer = await createProxy({ mode: 'replay', cassette });
  const replayed = await bed.client.send(replayer.url, { path: '/redirect' });
  expect(bed.client.header(replayed, 'location')).toBe(`${replayer.url}/length`);
  expect((await bed.client.send(replayer.url, { path: '/length' })).body.toString()).toBe('hello world\n');
  await replayer.close();
});

test('a form body too big to keep inline has its secret fields redacted as it streams, and its replay still matches', async () => {
  const cassette = path.join(bed.dir, 'big-form.cassette.json');
  const secret = 'form-pw-7c1e93';
  // 2 MiB of form: a request digest-only in the cassette, a response (the echo) in a sidecar.
  const upload = `padding=${'x'.repeat(2 * 1024 * 1024)}&password=${secret}&client_secret=s3cr%2Bet%21&name=a+b`;
  const send = (base: string) =>
    bed.client.send(base, {
      method: 'POST',
      path: '/echo',
      headers: [['Content-Type', 'application/x-www-form-urlencoded']],
      body: upload,
    });

  const recorder = await createProxy({ mode: 'record', target: bed.fixture.url, cassette });
  expect((await send(recorder.url)).status).toBe(200);
  await recorder.close();
  const files = allFiles(bed.dir).filter((f) => f.includes('big-form'));
  const sidecars = files.filter((f) => f.includes('.blobs'));
  expect(sidecars).toHaveLength(1);
  for (const file of files) {
    const content = readFileSync(file, 'latin1');
    for (const leaked of [secret, 's3cr%2Bet%21', 's3cr+et!'])
      expect(content.includes(leaked), `${leaked} in ${path.relative(bed.dir, file)}`).toBe(false);
  }
  expect(readFileSync(sidecars[0], 'utf8').endsWith('&password=%3Credacted%3E&client_secret=%3Credacted%3E&name=a+b')).toBe(true);
  const { redactions } = JSON.parse(readFileSync(cassette, 'utf8'));
  expect(redactions).toEqual(expect.arrayContaining(['request.body.form.password', 'response.body.form.client_secret']));

  const replayer = await createProxy({ mode: 'replay', cassette });
  expect((await send(replayer.url)).status).toBe(200);
  await replayer.close();
});

// Also when the JSON comes labelled text/plain: an inline body gets the field rules whenever
// its text is JSON, so a big one must too (the scanner passes what is not JSON through).
for (const contentType of ['application/json', 'text/plain; charset=utf-8'])
  test(`a JSON body too big to keep inline has its secret fields redacted as it streams, and its replay still matches (${contentType})`, async () => {
    const cassette = path.join(bed.dir, `big-json-${contentType.split('/')[0]}.cassette.json`);
    const secrets = ['fresh-pw-61d0c2', '9876543210123'];
    // 2 MiB of JSON: a request digest-only in the cassette, a response in a sidecar.
    const upload = (origin: string) =>
      JSON.stringify({
        padding: 'x'.repeat(2 * 1024 * 1024),
        password: secrets[0],
        items: [{ name: 'a', token: Number(secrets[1]) }],
        callback: `${origin}/hook`,
      });
    const send = (base: string) =>
      bed.client.send(base, { method: 'POST', path: '/echo', headers: [['Content-Type', contentType]], body: upload(base) });

    const recorder = await createProxy({ mode: 'record', target: bed.fixture.url, cassette });
    expect((await send(recorder.url)).status).toBe(200);
    await recorder.close();
    const files = allFiles(bed.dir);
    const sidecars = files.filter((f) => f.includes('.blobs'));
    expect(sidecars).toHaveLength(1);
    for (const file of files) {
      const content = readFileSync(file, 'latin1');
      for (const secret of secrets) expect(content.includes(secret), `${secret} in ${path.relative(bed.dir, file)}`).toBe(false);
    }
    const stored = JSON.parse(readFileSync(sidecars[0], 'utf8'));
    expect(stored).toMatchObject({ password: '<redacted>', items: [{ name: 'a', token: '<redacted>' }] });
    expect(stored.callback).not.toContain(recorder.url);
    const { redactions } = JSON.parse(readFileSync(cassette, 'utf8'));
    expect(redactions).toEqual(
      expect.arrayContaining(['response.body.$.password', 'response.body.$.items[*].token', 'request.body.$.password']),
    );

    // Replay: the same upload, naming the replaying proxy's own origin, is the recorded request.
    const replayer = await createProxy({ mode: 'replay', cassette });
    const replayed = await send(replayer.url);
    expect(replayed.status).toBe(200);
    const answer = bed.client.json(replayed) as { password: string; callback: string };
    expect(answer.password).toBe('<redacted>');
    expect(answer.callback).toBe(`${replayer.url}/hook`);
    await replayer.close();
  });

test('an answer is prepared at its first hit: a sidecar altered after recording fails its own request (500 naming the file), not the cassette’s other answers', async () => {
  const cassette = path.join(bed.dir, 'damaged.cassette.json');
  const recorder = await createProxy({ mode: 'record', target: bed.fixture.url, cassette });
  for (const p of ['/length', '/binary']) await bed.client.send(recorder.url, { path: p });
  await recorder.close();
  const sidecar = readdirSync(path.join(bed.dir, 'damaged.blobs')).map((name) => path.join(bed.dir, 'damaged.blobs', name));
  expect(sidecar).toHaveLength(1);
  writeFileSync(sidecar[0], 'not what was recorded');
  const replayer = await createProxy({ mode: 'replay', cassette });
  try {
    // The healthy answer comes first: it waits for nobody else's sidecar.
    expect((await bed.client.send(replayer.url, { path: '/length' })).status).toBe(200);
    const damaged = await bed.client.send(replayer.url, { path: '/binary' });
    expect(damaged.status).toBe(500);
    expect(damaged.body.toString()).toContain(sidecar[0]);
  } finally {
    await replayer.close();
  }
});
