// One table, every writer: the same secret, in each form it takes on the wire, goes through
// every writer touchstone has (a cassette recorded through the proxy, the replay key that must
// still find it, the report files rendered from exchange records and failure messages, repro.sh,
// and a whole `touchstone run --record` against a hostile target, console included), and no
// file any of them wrote holds the secret in any spelling (raw, percent-encoded, base64, JSON
// escapes). Each row also checks that the detector finds the secret in what was sent, so a
// row whose secret never reached a writer cannot pass by accident.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as pause } from 'node:timers/promises';
import { expect, test } from '@playwright/test';
import type { HeaderPairs } from '../core/results.js';
import { createResultsFixture } from '../../test-support/results-fixture.js';
import { startCannedTarget } from '../../test-support/canned-target.js';
import { showJson } from '../http/expectations.js';
import { createRedactor, toCurl, toExchangeRecord, withSecrets } from '../http/exchange-record.js';
import { createHttpTransport } from '../http/transport.js';
import { MISS_HEADER } from '../proxy/proxy-options.js';
import { createProxy } from '../proxy/proxy-server.js';
import { writeReports } from '../report/write-reports.js';
import { readWorldTokens } from '../suite/world-tokens.js';
import { runCli, tokensFile } from '../../test-support/cli-process.js';

/** A token the run was given (the proxy's --secrets, the reports' tokens). */
const TOKEN = 'Zq7tok-run-token-0042';
/** The same token's value on the machine that replays. */
const OTHER_TOKEN = 'Wv4tok-run-token-7315';
/** A secret nobody named: the policy's rules must find it. */
const FOUND = 'Zq7found-secret-0077';
const DEEP = 20_000;

/** Every spelling of a secret the writers must not keep. */
const spellings = (secret: string) => [
  secret,
  encodeURIComponent(secret),
  Buffer.from(secret).toString('base64'),
  Buffer.from(secret).toString('base64').replace(/=+$/, ''),
  Buffer.from(secret).toString('base64url'),
];
/** JSON escapes (`\u0073`, `\/`, behind any number of backslashes: a body inside a JSON string) unfolded. */
const unfolded = (text: string) =>
  text.replace(/\\+u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))).replace(/\\+\//g, '/');
const escapedFirst = (secret: string) => `\\u${secret.charCodeAt(0).toString(16).padStart(4, '0')}${secret.slice(1)}`;
/** Every other character escaped, in upper and lower hex by turns. */
const escapedMix = (secret: string) =>
  [...secret]
    .map((ch, i) => {
      const hex = ch.charCodeAt(0).toString(16).padStart(4, '0');
      return i % 2 ? ch : `\\u${i % 4 ? hex : hex.toUpperCase()}`;
    })
    .join('');
/** Over the 1 MiB a body may be held inline: written to a body file beside the cassette, scrubbed as it streams. */
const STREAMED = 1024 * 1024 + 4096;
/**
 * A JSON text over STREAMED bytes holding `spelling` as often as it has bytes, cut into pieces
 * (sent with pauses between them, so the proxy reads them apart) at each byte of it in turn:
 * inside an escape, between escapes, between a plain character and an escape.
 */
function cutAtEveryByte(field: string, spelling: string): string[] {
  const pieces = [`{"filler":"${'x'.repeat(STREAMED)}","${field}":"`];
  for (let cut = 1; cut < spelling.length; cut++) {
    pieces[pieces.length - 1] += ` ${spelling.slice(0, cut)}`;
    pieces.push(spelling.slice(cut));
  }
  pieces[pieces.length - 1] += '"}';
  return pieces;
}

/** The spellings of `secret` found in `text` (and in the bytes of any inline base64 body it holds). */
function leaks(text: string, secret: string): string[] {
  const plain = unfolded(text);
  const found = spellings(secret).filter((form) => plain.includes(form));
  for (const [, b64] of text.matchAll(/"base64": ?"([^"]*)"/g)) {
    const bytes = Buffer.from(b64, 'base64').toString('latin1');
    found.push(...spellings(secret).filter((form) => bytes.includes(form)));
  }
  return found;
}

/** file -> spellings found, for every file under `dirs`, recursively. */
function leaksInFiles(dirs: string[], secret: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const dir of dirs)
    for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
      const file = path.join(dir, name);
      let text: string;
      try {
        text = readFileSync(file, 'latin1');
      } catch {
        continue; // a folder
      }
      const found = leaks(Buffer.from(text, 'latin1').toString('utf8'), secret);
      if (found.length) out[file] = found;
    }
  return out;
}

interface Row {
  form: string;
  secret: string;
  method: string;
  path: string;
  headers: HeaderPairs;
  /** As pieces: sent one by one (cutAtEveryByte). */
  body?: string | readonly string[];
  /** What the hostile target answers (as pieces: written one by one). */
  response: string | readonly string[];
}

const json = 'application/json';
const deep = (inner: string) => `${'{"a":'.repeat(DEEP)}${inner}${'}'.repeat(DEEP)}`;
/** The rows, with the run's token `token` (a replay may be given another value of it). */
const rowsFor = (token: string): Row[] => [
  {
    form: 'a run token in a header',
    secret: token,
    method: 'GET',
    path: '/user',
    headers: [['Authorization', `Bearer ${token}`]],
    response: '{}',
  },
  { form: 'an unnamed secret in a header', secret: FOUND, method: 'GET', path: '/user', headers: [['X-Api-Key', FOUND]], response: '{}' },
  { form: 'a query string', secret: FOUND, method: 'GET', path: `/items?access_token=${FOUND}&page=1`, headers: [], response: '[]' },
  {
    form: 'a form body',
    secret: FOUND,
    method: 'POST',
    path: '/login',
    headers: [['Content-Type', 'application/x-www-form-urlencoded']],
    body: `user=ada&password=${encodeURIComponent(FOUND)}`,
    response: '{"ok":true}',
  },
  {
    form: 'a run token escaped in JSON',
    secret: token,
    method: 'POST',
    path: '/notes',
    headers: [['Content-Type', json]],
    body: `{"note":"sent ${escapedFirst(token)}"}`,
    response: `{"echo":"${escapedFirst(token)}"}`,
  },
  {
    form: 'an unnamed secret escaped in a secret field',
    secret: FOUND,
    method: 'POST',
    path: '/notes',
    headers: [['Content-Type', json]],
    body: `{"password":"${escapedFirst(FOUND)}"}`,
    response: '{}',
  },
  {
    form: 'a run token in base64',
    secret: token,
    method: 'GET',
    path: '/blob',
    headers: [],
    response: `{"content":"${Buffer.from(token).toString('base64')}"}`,
  },
  {
    form: `nested ${DEEP} levels deep`,
    secret: FOUND,
    method: 'POST',
    path: '/deep',
    headers: [['Content-Type', json]],
    body: deep(`{"password":"${FOUND}"}`),
    response: deep(`{"access_token":"${FOUND}"}`),
  },
  {
    form: 'a response body',
    secret: FOUND,
    method: 'GET',
    path: '/login/oauth',
    headers: [],
    response: `{"access_token":"${FOUND}","refresh_token":"${FOUND}-r","nested":{"password":"${FOUND}-p"}}`,
  },
  {
    form: 'a request body over 1 MiB, escaped and cut inside the escapes',
    secret: token,
    method: 'POST',
    path: '/upload',
    headers: [['Content-Type', json]],
    body: cutAtEveryByte('note', escapedMix(token)),
    response: '{"ok":true}',
  },
  {
    form: 'a response body over 1 MiB, escaped and cut inside the escapes',
    secret: token,
    method: 'GET',
    path: '/download',
    headers: [],
    response: cutAtEveryByte('echo', escapedMix(token)),
  },
];
const ROWS = rowsFor(TOKEN);
/** The same requests as another machine sends them, with its own value of the token. */
const REPLAYED = rowsFor(OTHER_TOKEN);

/** A request whose body is written in `pieces`, with a pause after each. */
function sendInPieces(url: string, method: string, headers: HeaderPairs, pieces: readonly string[]) {
  return new Promise<{ status: number; headers: HeaderPairs; body: Buffer }>((resolve, reject) => {
    const req = http.request(
      url,
      { method, headers: { ...Object.fromEntries(headers), 'Content-Length': Buffer.byteLength(pieces.join('')) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: Object.entries(res.headers).map(([k, v]) => [k, String(v)]),
            body: Buffer.concat(chunks),
          }),
        );
      },
    );
    req.on('error', reject);
    void (async () => {
      for (const piece of pieces) {
        req.write(piece);
        await pause(2);
      }
      req.end();
    })();
  });
}

test.describe.configure({ mode: 'parallel' });

for (const [i, row] of ROWS.entries()) {
  test(`a secret in ${row.form}: no cassette, replay key, report, message or repro.sh keeps it`, async () => {
    // The detector sees the secret in what goes over the wire: the row tests something.
    const [body, response] = [row.body, row.response].map((text) => (typeof text === 'string' ? text : text?.join('')));
    expect(leaks(`${row.path} ${JSON.stringify(row.headers)} ${body ?? ''} ${response}`, row.secret)).not.toEqual([]);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-secrets-writers-'));
    const target = await startCannedTarget('canned', row.response);
    const transport = createHttpTransport({ timeoutMs: 20_000 });
    const send = (base: string, sent = row) =>
      typeof sent.body === 'object'
        ? sendInPieces(`${base}${sent.path}`, sent.method, sent.headers, sent.body)
        : transport.send({
            method: sent.method,
            url: `${base}${sent.path}`,
            headers: sent.headers,
            body: sent.body === undefined ? undefined : Buffer.from(sent.body),
          });
    try {
      // Cassette: recorded through the proxy, the run's token configured as a secret.
      const cassettes = path.join(dir, 'cassettes');
      const redaction = { secrets: { TOKEN } };
      const recorder = await createProxy({ mode: 'record', target: target.url, cassette: cassettes, redaction });
      const live = await send(recorder.url);
      expect(live.status).toBe(200);
      await recorder.close();
      // Replay key: the live request, scrubbed as its recording was, finds it, also where the
      // replaying machine has its own value of the token (each is the same <secret:TOKEN>).
      const replayer = await createProxy({ mode: 'replay', cassette: cassettes, redaction: { secrets: { TOKEN: OTHER_TOKEN } } });
      const replayed = await send(replayer.url, REPLAYED[i]);
      await replayer.close();
      expect(
        replayed.headers.find(([name]) => name.toLowerCase() === MISS_HEADER),
        replayed.body.toString(),
      ).toBeUndefined();
      expect(replayed.status).toBe(200);

      // Reports: the exchange record of both sides, the failure message quoting the body, the curl line.
      const redact = withSecrets(createRedactor([TOKEN]), new Set());
      const exchange = toExchangeRecord(
        {
          method: row.method,
          url: `${target.url}${row.path}`,
          headers: row.headers,
          body: body === undefined ? undefined : Buffer.from(body),
        },
        { status: 200, headers: [['Content-Type', json]], body: Buffer.from(response!) },
        redact,
      );
      const results = createResultsFixture();
      const failing = results.cases.find((c) => c.failure?.exchange)!;
      const actual = redact(`$ = ${showJson(JSON.parse(response!))}`);
      failing.message = `${failing.failure!.requirement}: expected nothing secret, got ${actual}`;
      failing.failure = { ...failing.failure!, actual, exchange, reproduce: toCurl(exchange.request) };
      failing.rerun = 'touchstone run --target http://impl.example --only x';
      const reports = path.join(dir, 'reports');
      writeReports(reports, results);
      expect(readdirSync(reports)).toContain('repro.sh');

      expect(leaksInFiles([cassettes, reports], row.secret)).toEqual({});
    } finally {
      transport.close();
      await target.close();
    }
  });
}

test('touchstone run --record against a hostile target: no file it writes, nor its console, keeps what the target answered or the tokens it echoed', async () => {
  test.slow(); // a whole run: about 15 s
  const admin = readWorldTokens()['repo-admin'];
  const hostile = JSON.stringify({
    access_token: FOUND,
    refresh_token: `${FOUND}-r`,
    nested: { password: `${FOUND}-p` },
    echo: Buffer.from(admin).toString('base64'),
  }).replace('}', `,"said":"${escapedFirst(admin)}"}`);
  const target = await startCannedTarget('canned', hostile);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-secrets-run-'));
  const [out, recordings] = [path.join(dir, 'out'), path.join(dir, 'recordings')];
  try {
    const result = await runCli(
      ['run', '--suite', 'social-accounts', '--target', target.url, '--tokens', tokensFile(dir), '--record', recordings, '--out', out],
      { ADMIN_TOKEN: admin },
    );
    expect(result.code, result.stderr).toBe(1); // the canned answer fails cases: their messages quote it
    expect(readdirSync(out)).toEqual(
      expect.arrayContaining(['results.json', 'report.html', 'junit.xml', 'ctrf.json', 'summary.md', 'repro.sh']),
    );
    expect(readFileSync(path.join(out, 'results.json'), 'utf8')).toContain('<redacted>');
    for (const secret of [FOUND, admin]) {
      expect(leaksInFiles([out, recordings], secret), secret).toEqual({});
      expect(leaks(result.stdout + result.stderr, secret), secret).toEqual([]);
    }
  } finally {
    await target.close();
  }
});
