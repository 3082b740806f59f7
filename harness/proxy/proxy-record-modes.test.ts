// What recording does with a cassette that already exists (VCR's record modes once,
// new_episodes, all, none, over the proxy's --mode record), the exhaustion default, one log
// line per request (never a secret in it), and a journal readable while recording is under way.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { Cassette } from '../cassette/cassette-format.js';
import { inspectJournal } from '../cassette/cassette-store.js';
import { harnessErrorOf } from '../../test-support/harness-error.js';
import type { ProxyOptions, RecordMode } from './proxy-options.js';
import { createProxy } from './proxy-server.js';
import { formatProxySummary } from './proxy-summary.js';
import { useProxyTestBed } from '../../test-support/proxy-test-client.js';

const bed = useProxyTestBed();

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Cassette;
const requests = (file: string) => read(file).interactions.map((i) => `${i.request.method} ${i.request.url}`);

/** A cassette of two interactions: GET /counter, then GET /length?page=1. */
async function twoInteractions(file: string) {
  const recorder = await createProxy({ mode: 'record', target: bed.fixture.url, cassette: file });
  await bed.client.send(recorder.url, { path: '/counter' });
  await bed.client.send(recorder.url, { path: '/length?page=1' });
  await recorder.close();
  expect(requests(file)).toEqual(['GET /counter', 'GET /length?page=1']);
}

/** --mode record with this record mode on `file`: GET /counter again, then a request never recorded. */
async function recordAgain(file: string, recordMode?: RecordMode, fresh = '/length?page=2') {
  const before = bed.fixture.connections();
  const proxy = await createProxy({ mode: 'record', target: bed.fixture.url, cassette: file, ...(recordMode && { recordMode }) });
  const known = await bed.client.send(proxy.url, { path: '/counter' });
  const answered = await bed.client.send(proxy.url, { path: fresh });
  const { summary } = await proxy.close();
  return { known: known.status, fresh: answered.status, upstream: bed.fixture.connections() - before, summary };
}

test('record mode once (the default): an existing cassette is replayed, never replaced; a new request is a miss naming the other modes', async () => {
  const file = path.join(bed.dir, 's1.cassette.json');
  await twoInteractions(file);
  const bytes = readFileSync(file, 'utf8');
  const again = await recordAgain(file);
  expect(again.known).toBe(200);
  expect(again.fresh).toBe(599);
  expect(again.upstream).toBe(0);
  expect(readFileSync(file, 'utf8')).toBe(bytes);
  const text = formatProxySummary(again.summary);
  expect(text).toContain('s1: already recorded, replayed and kept as it was (record mode once; --record-mode all re-records it)');
  expect(text).toContain('--record-mode new_episodes records them');
  // A cassette that does not exist yet is recorded, as with VCR's once.
  const fresh = path.join(bed.dir, 'fresh.cassette.json');
  expect((await recordAgain(fresh)).fresh).toBe(200);
  expect(requests(fresh)).toEqual(['GET /counter', 'GET /length?page=2']);
});

test('record mode new_episodes replays what is recorded and appends what is not; all re-records; none never goes upstream', async () => {
  const file = path.join(bed.dir, 'episodes.cassette.json');
  await twoInteractions(file);
  const episodes = await recordAgain(file, 'new_episodes');
  expect([episodes.known, episodes.fresh]).toEqual([200, 200]);
  expect(requests(file)).toEqual(['GET /counter', 'GET /length?page=1', 'GET /length?page=2']);

  const none = await recordAgain(file, 'none', '/length?page=3');
  expect([none.known, none.fresh, none.upstream]).toEqual([200, 599, 0]);
  expect(requests(file)).toEqual(['GET /counter', 'GET /length?page=1', 'GET /length?page=2']);

  const all = await recordAgain(file, 'all');
  expect([all.known, all.fresh]).toEqual([200, 200]);
  expect(requests(file)).toEqual(['GET /counter', 'GET /length?page=2']);
});

test('--record-mode goes with --mode record: with another mode it is a usage error naming what to use', async () => {
  const cassette = path.join(bed.dir, 'x.cassette.json');
  const attempt = (options: Partial<ProxyOptions>) =>
    createProxy({ mode: 'record', target: bed.fixture.url, cassette, ...options } as ProxyOptions);
  const refusals = [
    [{ mode: 'replay', recordMode: 'all' }, '--mode replay never records; --record-mode all goes with --mode record'],
    [{ mode: 'passthrough', recordMode: 'once' }, '--mode passthrough never records; --record-mode once goes with --mode record'],
    [
      { mode: 'record-missing', recordMode: 'all' },
      '--mode record-missing is --record-mode new_episodes; --record-mode all goes with --mode record',
    ],
  ] as const;
  for (const [options, message] of refusals) {
    const error = await harnessErrorOf(attempt(options));
    expect([error.code, error.message]).toEqual(['USAGE', message]);
  }
  // The modes that mean the same are accepted together.
  await twoInteractions(cassette);
  for (const options of [
    { mode: 'replay', recordMode: 'none' },
    { mode: 'record-missing', recordMode: 'new_episodes' },
  ] as const)
    await (await attempt(options)).close();
});

test('after the last recorded answer, identical requests get it again by default (repeat-last)', async () => {
  const file = path.join(bed.dir, 'repeat.cassette.json');
  const recorder = await createProxy({ mode: 'record', target: bed.fixture.url, cassette: file });
  await bed.client.send(recorder.url, { path: '/counter' });
  await recorder.close();
  const replayer = await createProxy({ mode: 'replay', cassette: file });
  const statuses = [];
  for (let i = 0; i < 3; i++) statuses.push((await bed.client.send(replayer.url, { path: '/counter' })).status);
  await replayer.close();
  expect(statuses).toEqual([200, 200, 200]);
});

test('--log info writes one line per request (recorded, hit, miss, forwarded), secrets redacted; warn only misses; silent nothing', async () => {
  const file = path.join(bed.dir, 'logged.cassette.json');
  const secret = 'tok-Q81z-secret-value';
  const auth: [string, string][] = [['Authorization', `Bearer ${secret}`]];
  const lines: string[] = [];
  const logged = (log: ProxyOptions['log']) => ({ log, logTo: (line: string) => void lines.push(line) });
  const recorder = await createProxy({ mode: 'record', target: bed.fixture.url, cassette: file, ...logged('info') });
  await bed.client.send(recorder.url, { path: `/counter?access_token=${secret}`, headers: auth });
  await recorder.close();
  expect(lines).toEqual([expect.stringMatching(/^touchstone: proxy: recorded logged #1 GET \/counter\?access_token=<redacted> -> 200\n$/)]);

  for (const level of ['info', 'warn', 'silent'] as const) {
    lines.length = 0;
    const replayer = await createProxy({ mode: 'replay', cassette: file, ...logged(level) });
    await bed.client.send(replayer.url, { path: `/counter?access_token=${secret}`, headers: auth });
    await bed.client.send(replayer.url, { path: `/nowhere?api_key=${secret}` });
    await replayer.close();
    const expected = {
      info: [
        /^touchstone: proxy: hit logged #1 GET \/counter\?access_token=<redacted> -> 200\n$/,
        /^touchstone: proxy: miss logged GET \/nowhere\?api_key=<redacted> -> 599: no recorded interaction matches this request\n$/,
      ],
      warn: [/^touchstone: proxy: miss logged GET \/nowhere\?api_key=<redacted> -> 599: /],
      silent: [],
    }[level];
    expect(lines, level).toEqual(expected.map((pattern) => expect.stringMatching(pattern)));
  }
  lines.length = 0;
  const passing = await createProxy({ mode: 'passthrough', target: bed.fixture.url, cassette: file, ...logged('info') });
  await bed.client.send(passing.url, { path: `/length?page=3&token=${secret}`, headers: auth });
  await passing.close();
  expect(lines).toEqual([expect.stringMatching(/^touchstone: proxy: forwarded logged GET \/length\?page=3&token=<redacted> -> 200\n$/)]);
  // The summary's list of misses is a log too: it shows the URL as redacted.
  const replayer = await createProxy({ mode: 'replay', cassette: file });
  await bed.client.send(replayer.url, { path: `/nowhere?api_key=${secret}` });
  const { summary } = await replayer.close();
  expect(formatProxySummary(summary)).toContain('GET /nowhere?api_key=<redacted>');
  expect(formatProxySummary(summary)).not.toContain(secret);
});

test('while recording, each answered interaction is in the journal, redacted, before the proxy stops; the journal goes when the cassette is written', async () => {
  const file = path.join(bed.dir, 'live.cassette.json');
  const secret = 'tok-J0urnal-secret';
  const recorder = await createProxy({
    mode: 'record',
    target: bed.fixture.url,
    cassette: file,
    redaction: { secrets: { admin: secret } },
  });
  await bed.client.send(recorder.url, { path: '/counter', headers: [['Authorization', `Bearer ${secret}`]] });
  const journal = inspectJournal(file);
  expect(journal?.holder).toBe(process.pid);
  expect(journal?.interactions.map((i) => `${i.request.method} ${i.request.url} ${i.response.status}`)).toEqual(['GET /counter 200']);
  expect(readFileSync(`${file}.journal`, 'utf8')).not.toContain(secret);
  expect(readFileSync(`${file}.journal`, 'utf8')).toContain('Bearer <secret:admin>');
  expect(existsSync(file)).toBe(false);
  await recorder.close();
  expect(inspectJournal(file)).toBeUndefined();
  expect(requests(file)).toEqual(['GET /counter']);
});
