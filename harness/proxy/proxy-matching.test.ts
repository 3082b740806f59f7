// How the proxy picks a recorded answer: sequencing of identical requests and the
// exhaustion policy, matching that ignores what should not matter, loud misses,
// per-request cassettes for parallel workers, record-missing and verify.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { LISTED_MISSES } from './proxy-options.js';
import { createProxy } from './proxy-server.js';
import { formatProxyStop, formatProxySummary } from './proxy-summary.js';
import { freePort } from '../../test-support/free-port.js';
import { useProxyTestBed } from '../../test-support/proxy-test-client.js';

const bed = useProxyTestBed();

async function recordCounterStory(cassette: string) {
  const recorder = await createProxy({ mode: 'record', target: bed.fixture.url, cassette });
  await bed.client.send(recorder.url, { path: '/counter' });
  await bed.client.send(recorder.url, { method: 'PUT', path: '/counter', body: '7' });
  await bed.client.send(recorder.url, { path: '/counter' });
  await recorder.close();
}

test('identical requests are answered in recorded order; after the last, the policy decides', async () => {
  const cassette = path.join(bed.dir, 'story.cassette.json');
  await recordCounterStory(cassette);
  const counters = async (policy: 'error' | 'repeat-last' | 'cycle') => {
    const replayer = await createProxy({ mode: 'replay', cassette, exhausted: policy });
    const seen = [];
    for (let i = 0; i < 3; i++) {
      const r = await bed.client.send(replayer.url, { path: '/counter' });
      seen.push(r.status === 200 ? (bed.client.json(r) as { counter: number }).counter : r.status);
    }
    await replayer.close();
    return seen;
  };
  expect(await counters('error')).toEqual([0, 7, 599]);
  expect(await counters('repeat-last')).toEqual([0, 7, 7]);
  expect(await counters('cycle')).toEqual([0, 7, 0]);
});

test('a miss answers 599 with x-touchstone-miss and names the nearest interactions and what differed', async () => {
  const cassette = path.join(bed.dir, 'miss.cassette.json');
  const recorder = await createProxy({ mode: 'record', target: bed.fixture.url, cassette });
  await bed.client.send(recorder.url, { path: '/length?page=1&per_page=2' });
  await bed.client.send(recorder.url, { path: '/gzip' });
  await recorder.close();

  const replayer = await createProxy({ mode: 'replay', cassette });
  const miss = await bed.client.send(replayer.url, { path: '/length?page=2&per_page=2' });
  expect(miss.status).toBe(599);
  expect(bed.client.header(miss, 'x-touchstone-miss')).toBe('1');
  const body = bed.client.json(miss) as {
    error: string;
    nearest: { seq: number; differences: { rule: string; recorded: string; actual: string }[] }[];
  };
  expect(body.error).toContain('no recorded interaction matches');
  expect(body.nearest[0]).toEqual({
    seq: 1,
    request: 'GET /length?page=1&per_page=2',
    differences: [{ rule: 'query', recorded: 'page=1&per_page=2', actual: 'page=2&per_page=2' }],
  });
  expect(body.nearest).toHaveLength(2);
  const { summary } = await replayer.close();
  expect(summary.misses).toEqual([expect.objectContaining({ method: 'GET', url: '/length?page=2&per_page=2' })]);
  expect(summary.cassettes[0].unused).toEqual([1, 2]);
});

test('a flood of misses is counted, not kept: the summary lists the first ones and says how many there were', async () => {
  const cassette = path.join(bed.dir, 'flood.cassette.json');
  const recorder = await createProxy({ mode: 'record', target: bed.fixture.url, cassette });
  await bed.client.send(recorder.url, { path: '/length?n=0' });
  await recorder.close();
  const replayer = await createProxy({ mode: 'replay', cassette });
  const extra = 5;
  for (let n = 1; n <= LISTED_MISSES + extra; n++)
    expect((await bed.client.send(replayer.url, { path: `/length?n=${n}` })).status).toBe(599);
  const { summary } = await replayer.close();
  expect(summary.misses).toHaveLength(LISTED_MISSES);
  expect(summary.misses.at(-1)?.url).toBe(`/length?n=${LISTED_MISSES}`);
  expect(summary.unlistedMisses).toBe(extra);
  expect(formatProxySummary(summary)).toContain(`${LISTED_MISSES + extra} misses (the first ${LISTED_MISSES} listed):`);
});

test('a request body too big to keep inline is recorded as its digest only, and still decides a match', async () => {
  const cassette = path.join(bed.dir, 'upload.cassette.json');
  const upload = (fill: string) => ({
    method: 'POST',
    path: '/length',
    headers: [['Content-Type', 'text/plain']] as [string, string][],
    body: fill.repeat(2 * 1024 * 1024),
  });
  const recorder = await createProxy({ mode: 'record', target: bed.fixture.url, cassette });
  await bed.client.send(recorder.url, upload('a'));
  await recorder.close();
  const body = JSON.parse(readFileSync(cassette, 'utf8')).interactions[0].request.body;
  expect(body).toEqual({
    sha256: createHash('sha256')
      .update('a'.repeat(2 * 1024 * 1024))
      .digest('hex'),
    size: 2 * 1024 * 1024,
  });
  expect(existsSync(path.join(bed.dir, 'upload.blobs'))).toBe(false);

  const replayer = await createProxy({ mode: 'replay', cassette });
  expect((await bed.client.send(replayer.url, upload('b'))).status).toBe(599);
  expect((await bed.client.send(replayer.url, upload('a'))).status).toBe(200);
  await replayer.close();
});

test('a binary request body too big to keep inline but under a MiB is matched by its digest, not taken for an empty body', async () => {
  const cassette = path.join(bed.dir, 'binary-upload.cassette.json');
  const post = (body?: Buffer) => ({
    method: 'POST',
    path: '/echo',
    headers: [['Content-Type', 'application/octet-stream']] as [string, string][],
    body,
  });
  const upload = Buffer.alloc(20 * 1024, 0xff); // not UTF-8, over the 16 KiB kept inline as base64
  const recorder = await createProxy({ mode: 'record', target: bed.fixture.url, cassette });
  const recorded = [await bed.client.send(recorder.url, post(upload)), await bed.client.send(recorder.url, post())];
  await recorder.close();
  expect(JSON.parse(readFileSync(cassette, 'utf8')).interactions[0].request.body).toEqual({
    sha256: createHash('sha256').update(upload).digest('hex'),
    size: upload.length,
  });

  const replayer = await createProxy({ mode: 'replay', cassette });
  // Each gets its own recorded answer, in either order; another upload of that size is a miss.
  expect((await bed.client.send(replayer.url, post())).sha256).toBe(recorded[1].sha256);
  expect((await bed.client.send(replayer.url, post(upload))).sha256).toBe(recorded[0].sha256);
  expect((await bed.client.send(replayer.url, post(Buffer.alloc(20 * 1024, 0xfe)))).status).toBe(599);
  await replayer.close();
});

test('replay keys a request as recording did when the matched headers leave out its content type and its secret headers', async () => {
  const cassette = path.join(bed.dir, 'unmatched.cassette.json');
  const match = { headers: ['accept'] };
  // A form and a pretty-printed JSON body (compared by meaning, which needs the content type),
  // and an API key sent in a header and in the path (swept from the path, which needs the header).
  const requests = [
    {
      method: 'POST',
      path: '/echo',
      headers: [['Content-Type', 'application/x-www-form-urlencoded']] as [string, string][],
      body: 'a=1&b=2',
    },
    { method: 'POST', path: '/echo', headers: [['Content-Type', 'application/json']] as [string, string][], body: '{ "x": 1 }' },
    { path: '/length?key=k-7f3a9c21d4', headers: [['X-Api-Key', 'k-7f3a9c21d4']] as [string, string][] },
  ];
  const recorder = await createProxy({ mode: 'record', target: bed.fixture.url, cassette, match });
  const recorded = [];
  for (const request of requests) recorded.push(await bed.client.send(recorder.url, request));
  await recorder.close();
  expect(readFileSync(cassette, 'utf8')).not.toContain('k-7f3a9c21d4');

  const replayer = await createProxy({ mode: 'replay', cassette, match });
  for (const [i, request] of requests.entries()) {
    const answer = await bed.client.send(replayer.url, request);
    expect(answer.status, `${request.path} ${request.body ?? ''}`).toBe(recorded[i].status);
    expect(answer.sha256).toBe(recorded[i].sha256);
  }
  await replayer.close();
});

test('matching ignores query order, unlisted headers and configured volatile fields, and compares JSON by meaning', async () => {
  const cassette = path.join(bed.dir, 'loose.cassette.json');
  const match = { ignoreQuery: ['_'], ignoreBodyPaths: ['$.sent_at'] };
  const recorder = await createProxy({ mode: 'record', target: bed.fixture.url, cassette, match });
  await bed.client.send(recorder.url, { path: '/length?a=1&b=2&_=111', headers: [['User-Agent', 'one/1.0']] });
  await bed.client.send(recorder.url, {
    method: 'POST',
    path: '/echo',
    headers: [['Content-Type', 'application/json']],
    body: '{"x":1,"y":[1,2],"sent_at":"2026-01-01"}',
  });
  await recorder.close();

  const replayer = await createProxy({ mode: 'replay', cassette, match });
  const hit = await bed.client.send(replayer.url, { path: '/length?b=2&a=1&_=999', headers: [['User-Agent', 'two/2.0']] });
  expect(hit.status).toBe(200);
  const jsonHit = await bed.client.send(replayer.url, {
    method: 'POST',
    path: '/echo',
    headers: [['Content-Type', 'application/json']],
    body: '{ "y": [1, 2], "sent_at": "2027-05-05", "x": 1 }',
  });
  expect(jsonHit.status).toBe(200);
  await replayer.close();

  const strict = await createProxy({ mode: 'replay', cassette });
  expect((await bed.client.send(strict.url, { path: '/length?b=2&a=1&_=999' })).status).toBe(599);
  expect((await bed.client.send(strict.url, { path: '/length?a=1&b=2&_=111', headers: [['Accept', 'text/html']] })).status).toBe(599);
  await strict.close();
});

test('parallel workers share one proxy: each request picks its cassette, and sequences stay per cassette', async () => {
  const recorder = await createProxy({ mode: 'record', target: bed.fixture.url, cassette: bed.dir });
  await bed.client.send(recorder.url, { path: '/counter', cassette: 'worker-a/case' });
  await bed.client.send(recorder.url, { method: 'PUT', path: '/counter', body: '5', cassette: 'worker-b/case' });
  await bed.client.send(recorder.url, { path: '/counter', cassette: 'worker-b/case' });
  await recorder.close();

  const replayer = await createProxy({ mode: 'replay', cassette: bed.dir });
  const [b, a] = await Promise.all([
    bed.client.send(replayer.url, { path: '/counter', cassette: 'worker-b/case' }),
    bed.client.send(replayer.url, { path: '/counter', cassette: 'worker-a/case' }),
  ]);
  expect(bed.client.json(a)).toEqual({ counter: 0 });
  expect(bed.client.json(b)).toEqual({ counter: 5 });
  const unsafe = await bed.client.send(replayer.url, { path: '/counter', cassette: '../escape' });
  expect(unsafe.status).toBe(400);
  await replayer.close();
});

test('record-missing replays what it has and appends only what is new', async () => {
  const cassette = path.join(bed.dir, 'grow.cassette.json');
  const first = await createProxy({ mode: 'record', target: bed.fixture.url, cassette });
  await bed.client.send(first.url, { path: '/length' });
  await first.close();
  const before = JSON.parse(readFileSync(cassette, 'utf8'));

  const grow = await createProxy({ mode: 'record-missing', target: bed.fixture.url, cassette });
  const connections = bed.fixture.connections();
  expect((await bed.client.send(grow.url, { path: '/length' })).status).toBe(200);
  expect(bed.fixture.connections()).toBe(connections);
  await bed.client.send(grow.url, { path: '/big-int' });
  await grow.close();
  const after = JSON.parse(readFileSync(cassette, 'utf8'));
  expect(after.interactions.slice(0, 1)).toEqual(before.interactions);
  expect(after.interactions.map((i: { seq: number; request: { url: string } }) => [i.seq, i.request.url])).toEqual([
    [1, '/length'],
    [2, '/big-int'],
  ]);
});

test('verify calls the target and reports how its answer differs from the recording, by JSON path', async () => {
  const cassette = path.join(bed.dir, 'verify.cassette.json');
  await recordCounterStory(cassette);
  // The last answer (the second GET) is edited to say 8 where the target says 7.
  const original = readFileSync(cassette, 'utf8');
  const at = [...original.matchAll(/"counter": ?7/g)].at(-1)!.index;
  const text = `${original.slice(0, at)}"counter": 8${original.slice(at).replace(/^"counter": ?7/, '')}`;
  writeFileSync(cassette, text);
  await bed.client.send(bed.fixture.url, { method: 'PUT', path: '/counter', body: '0' }); // the target starts over
  const verifier = await createProxy({ mode: 'verify', target: bed.fixture.url, cassette });
  await bed.client.send(verifier.url, { path: '/counter' });
  await bed.client.send(verifier.url, { method: 'PUT', path: '/counter', body: '7' });
  const live = await bed.client.send(verifier.url, { path: '/counter' });
  expect(bed.client.json(live)).toEqual({ counter: 7 });
  expect((await bed.client.send(verifier.url, { path: '/length' })).status).toBe(200); // recorded nowhere
  const { summary } = await verifier.close();
  expect(summary.verify).toEqual([
    expect.objectContaining({
      seq: 3,
      differences: [expect.objectContaining({ path: expect.stringContaining('counter'), before: 8, after: 7 })],
    }),
    expect.objectContaining({ url: '/length', differences: [{ path: 'interaction', kind: 'added' }] }),
  ]);
  expect(readFileSync(cassette, 'utf8')).toBe(text);
  // Counted as what they were: forwarded, never "replayed".
  expect(summary.verified).toEqual({ forwarded: 4, matched: 2, differed: 1, missed: 1 });
  const failing = formatProxyStop(summary, { failOnDiff: true });
  expect(failing.code).toBe(1);
  expect(failing.text.split('\n')[0]).toBe(
    'touchstone: proxy (verify): 1 cassette, 4 requests forwarded: 2 matched the recording, 1 differed from it, 1 had no recording',
  );
  expect(failing.text).not.toContain('replayed');
  expect(failing.text).toMatch(
    /\ntouchstone: exit 1: 1 answer differed from the recording, 1 request had no recording \(--fail-on-diff\)\n$/,
  );
  expect(formatProxyStop(summary, { failOnDiff: false }).code).toBe(0);
  // The request with no recording is verify's miss: --fail-on-miss counts it too.
  expect(formatProxyStop(summary, { failOnMiss: true }).text).toMatch(/touchstone: exit 1: 1 request missed \(--fail-on-miss\)\n$/);
});

test('verify passes only what it compared: answers of an unchanged target match; a target that fails to answer fails it', async () => {
  const cassette = path.join(bed.dir, 'unchanged.cassette.json');
  await recordCounterStory(cassette);
  await bed.client.send(bed.fixture.url, { method: 'PUT', path: '/counter', body: '0' });
  const verifier = await createProxy({ mode: 'verify', target: bed.fixture.url, cassette });
  await bed.client.send(verifier.url, { path: '/counter' });
  await bed.client.send(verifier.url, { method: 'PUT', path: '/counter', body: '7' });
  await bed.client.send(verifier.url, { path: '/counter' });
  const { summary } = await verifier.close();
  expect(summary.verified).toEqual({ forwarded: 3, matched: 3, differed: 0, missed: 0 });
  expect(formatProxyStop(summary, { failOnDiff: true })).toEqual({
    text: 'touchstone: proxy (verify): 1 cassette, 3 requests forwarded: 3 matched the recording, 0 differed from it, 0 had no recording\n',
    code: 0,
  });

  // Nothing listens at the target: its answer is the proxy's 502, never compared.
  const gone = await createProxy({ mode: 'verify', target: `http://127.0.0.1:${await freePort()}`, cassette });
  expect((await bed.client.send(gone.url, { path: '/counter' })).status).toBe(502);
  const stopped = formatProxyStop((await gone.close()).summary, { failOnDiff: true });
  expect(stopped.code).toBe(1);
  expect(stopped.text).toContain(
    '1 request forwarded: 0 matched the recording, 0 differed from it, 0 had no recording, 1 not compared (the target failed, or the client left before the whole answer)',
  );
  expect(stopped.text).toMatch(/touchstone: exit 1: 1 answer not compared \(--fail-on-diff\)\n$/);
});

test('a request body naming the proxy’s own origin matches on replay, where the proxy has another origin', async () => {
  const cassette = path.join(bed.dir, 'callback.cassette.json');
  const register = (base: string) =>
    bed.client.send(base, {
      method: 'POST',
      path: '/echo',
      headers: [['Content-Type', 'application/json']],
      body: JSON.stringify({ callback: `${base}/hooks/1`, events: ['push'] }),
    });
  const recorder = await createProxy({ mode: 'record', target: bed.fixture.url, cassette });
  expect((await register(recorder.url)).status).toBe(200);
  await recorder.close();
  expect(readFileSync(cassette, 'utf8')).not.toContain(recorder.url);

  const replayer = await createProxy({ mode: 'replay', cassette });
  expect(replayer.url).not.toBe(recorder.url);
  const replayed = await register(replayer.url);
  expect(replayed.status).toBe(200);
  expect(bed.client.json(replayed)).toEqual({ callback: `${replayer.url}/hooks/1`, events: ['push'] });
  await replayer.close();
});

test('replay keys a repeated request again once a secret is learnt, so its recorded redacted form then matches', async () => {
  const cassette = path.join(bed.dir, 'learnt.cassette.json');
  const recorder = await createProxy({ mode: 'record', target: bed.fixture.url, cassette });
  await bed.client.send(recorder.url, { path: '/length?access_token=supersecret123' });
  await bed.client.send(recorder.url, { path: '/length?n=supersecret123' }); // recorded with the learnt value swept
  await recorder.close();
  // A hand-edited recording of the same request with the value in clear, answering 201.
  const data = JSON.parse(readFileSync(cassette, 'utf8'));
  const swept = data.interactions[1];
  expect(swept.request.url).not.toContain('supersecret123');
  const clear = structuredClone(swept);
  clear.seq = 3;
  clear.request.url = '/length?n=supersecret123';
  clear.response.status = 201;
  data.interactions.push(clear);
  writeFileSync(cassette, JSON.stringify(data));

  const replayer = await createProxy({ mode: 'replay', cassette, exhausted: 'repeat-last' });
  const status = async (p: string) => (await bed.client.send(replayer.url, { path: p })).status;
  expect(await status('/length?n=supersecret123'), 'nothing learnt yet: the clear recording').toBe(201);
  expect(await status('/length?access_token=supersecret123')).toBe(200);
  // Keyed again with the secret now known (a key kept from the first request would repeat 201).
  expect(await status('/length?n=supersecret123'), 'the value is now swept: the redacted recording').toBe(200);
  await replayer.close();
});
