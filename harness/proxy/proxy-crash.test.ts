// Issue "crash-safe recording", Done when: 100 `kill -9` runs during recording leave only
// valid cassettes, and a second recorder on one cassette gets a clear lock error. Each
// run is a recording proxy in a child process (crash-child.ts) on ONE cassette reused
// across runs, killed at a random moment: mid-request, between requests, or while it
// closes (SIGTERM, then SIGKILL a little later). After each kill the test checks what
// the next proxy start would see: the cassette on disk, then recoverCassette's result.
//
// Decisions where the brief is silent:
// - Every recorded request carries a unique query (?r=<run>-<n>), so record-missing
//   misses on it and the cassette can be checked request by request; a record-missing
//   run also repeats one GET of the previous cassette, which must be replayed, not re-recorded.
// - "Answered" means the client received the complete response (node's `res.complete`).
//   Only the request in flight at the kill may be journaled without being answered.
// - Echo bodies come from a fixed pool of random sizes (up to 2 MiB) so the sidecar
//   folder, content-addressed, stays bounded however many runs there are.
// - The seed is random per run of the test and printed on failure; CRASH_SEED replays one.
import { spawn, type ChildProcess } from 'node:child_process';
import { buildSync } from 'esbuild';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { isDigestOnly, type Body, type Cassette, type Interaction } from '../cassette/cassette-format.js';
import { createCassetteLoader, readBodyBytes } from '../cassette/cassette-load.js';
import { openCassetteWriter, recoverCassette } from '../cassette/cassette-store.js';
import { RANDOM_MIB, startFidelityFixture } from '../../test-support/fidelity-fixture.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RUNS = 100;
/** Children booting ahead of their run. */
const POOL = 2;
type Mode = 'record' | 'record-missing';

// ---------------------------------------------------------------------------------------
// The child proxy

interface Child {
  proc: ChildProcess;
  pid: number;
  /** Resolves once the child has loaded the proxy and waits for start(). */
  loaded: Promise<void>;
  /** Creates the proxy; resolves to its URL. */
  start(mode: Mode, target: string, cassette: string): Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const children = new Set<ChildProcess>();

let childScript: string | undefined;
/**
 * The child (test-support/crash-child.ts), bundled once per worker with esbuild, packages
 * left to node_modules. Not `node --import tsx`: tsx's loader and its compiling of the
 * proxy's modules were about half of each of the 100 children's start.
 */
function bundledChild(): string {
  if (childScript) return childScript;
  const out = path.join(ROOT, 'test-results', `crash-child-${process.pid}.mjs`);
  buildSync({
    entryPoints: [path.join(ROOT, 'test-support', 'crash-child.ts')],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'inline',
    logLevel: 'error',
  });
  childScript = out;
  return out;
}

/** Boots a child up to "proxy loaded"; it touches nothing until start(). */
function spawnChild(): Child {
  const proc = spawn(process.execPath, ['--enable-source-maps', bundledChild()], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  children.add(proc);
  let stdout = '';
  let stderr = '';
  proc.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  proc.stdin!.on('error', () => {}); // EPIPE when it was killed first
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('exit', (code, signal) => {
      children.delete(proc);
      resolve({ code, signal });
    }),
  );
  // stdout: "loaded", then the URL.
  let loadedSeen!: () => void;
  const loaded = new Promise<void>((resolve) => (loadedSeen = resolve));
  const url = new Promise<string>((resolve, reject) => {
    proc.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const lines = stdout.split('\n');
      if (lines.length > 1) loadedSeen();
      if (lines.length > 2) resolve(lines[1]!);
    });
    void exited.then(({ code, signal }) => {
      loadedSeen();
      reject(new Error(`crash-child exited (${code ?? signal}) before printing its URL:\n${stderr}`));
    });
  });
  url.catch(() => {}); // reported by start() when someone waits for it
  return {
    proc,
    pid: proc.pid!,
    exited,
    loaded,
    start(mode, target, cassette) {
      proc.stdin!.write(`${JSON.stringify({ mode, target, cassette })}\n`);
      return url;
    },
  };
}

// ---------------------------------------------------------------------------------------
// The client: one connection per request, so a request is never retried or reused.

interface Sent {
  method: string;
  url: string;
  headers: [string, string][];
  body?: Buffer;
  /** record-missing: a repeat of a recorded request, answered from the cassette. */
  expectHit?: boolean;
}

interface Answer {
  status: number;
  body: Buffer;
}

function send(base: string, request: Sent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // With raw header pairs node:http adds no Host of its own.
    const headers = [
      ['Host', new URL(base).host],
      ...request.headers,
      ...(request.body ? [['Content-Length', String(request.body.length)]] : []),
    ];
    const req = http.request(`${base}${request.url}`, { method: request.method, headers: headers.flat(), agent: false, timeout: 15_000 });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('aborted', () => reject(new Error('aborted')));
      res.on('end', () =>
        res.complete ? resolve({ status: res.statusCode!, body: Buffer.concat(chunks) }) : reject(new Error('incomplete')),
      );
    });
    req.end(request.body);
  });
}

// ---------------------------------------------------------------------------------------
// Random but replayable

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const keyOf = (r: { method: string; url: string }) => `${r.method} ${r.url}`;

function makeBodyPool(rand: () => number): { contentType: string; bytes: Buffer }[] {
  const pool = [];
  // Mostly small, some near 2 MiB: binary over 16 KiB becomes a sidecar.
  for (let i = 0; i < 8; i++)
    pool.push({ contentType: 'application/octet-stream', bytes: randomBytes(1 + Math.floor(2 * 1024 * 1024 * rand() ** 2)) });
  pool.push({ contentType: 'application/json', bytes: Buffer.from(JSON.stringify({ small: true, n: 1 })) });
  pool.push({ contentType: 'text/plain', bytes: Buffer.from('text body '.repeat(3000)) });
  return pool;
}

function nextRequest(rand: () => number, pool: ReturnType<typeof makeBodyPool>, tag: string): Sent {
  const roll = rand();
  const q = `?r=${tag}`;
  if (roll < 0.2) return { method: 'GET', url: `/length${q}`, headers: [] };
  if (roll < 0.35) return { method: 'GET', url: `/gzip${q}`, headers: [['Accept-Encoding', 'gzip']] };
  if (roll < 0.45) return { method: 'GET', url: `/counter${q}`, headers: [] };
  if (roll < 0.5)
    return {
      method: 'PUT',
      url: `/counter${q}`,
      headers: [['Content-Type', 'text/plain']],
      body: Buffer.from(String(Math.floor(rand() * 1000))),
    };
  if (roll < 0.6) return { method: 'GET', url: `/binary${q}`, headers: [] };
  const body = pool[Math.floor(rand() * pool.length)]!;
  return { method: 'POST', url: `/echo${q}`, headers: [['Content-Type', body.contentType]], body: body.bytes };
}

/** What the fixture must have answered; a wrong answer is a proxy bug, not a crash effect. */
function checkAnswer(request: Sent, answer: Answer, where: string): void {
  expect(answer.status, `${where}: status of ${keyOf(request)}: ${answer.body.subarray(0, 300).toString()}`).toBe(200);
  const path = request.url.split('?')[0];
  if (path === '/echo') expect(sha256(answer.body), `${where}: echo body`).toBe(sha256(request.body!));
  if (path === '/binary') expect(sha256(answer.body), `${where}: /binary body`).toBe(sha256(RANDOM_MIB));
  if (path === '/length') expect(answer.body.toString(), `${where}: /length body`).toBe('hello world\n');
}

// ---------------------------------------------------------------------------------------
// Checks on disk

function bodiesOf(interaction: Interaction): Body[] {
  const out: Body[] = [];
  for (const body of [interaction.request.body, interaction.response.body]) {
    if (!body || isDigestOnly(body)) continue;
    out.push(body);
    if (body.encoded) out.push(body.encoded as Body);
  }
  return out;
}

/** (c) Every body readable, every sidecar present and matching its sha256 and size. */
function checkSidecars(cassette: Cassette, dir: string, where: string): number {
  const seen = new Set<string>(); // content-addressed: many bodies share one sidecar
  for (const interaction of cassette.interactions) {
    for (const body of bodiesOf(interaction)) {
      const id = 'file' in body ? `${body.file} ${body.sha256} ${body.size}` : undefined;
      if (id && seen.has(id)) continue;
      if (id) seen.add(id);
      expect(() => readBodyBytes(body, dir), `${where}: seq ${interaction.seq} body`).not.toThrow();
    }
  }
  return seen.size;
}

function requestBodySha(interaction: Interaction, dir: string): string {
  const body = interaction.request.body;
  if (!body) return sha256(Buffer.alloc(0));
  return isDigestOnly(body) ? body.sha256 : sha256(readBodyBytes(body, dir));
}

// ---------------------------------------------------------------------------------------

test('100 kill -9 runs during recording leave only valid cassettes', async () => {
  test.setTimeout(180_000); // ~60-90 s on a busy 2-core machine
  const seed = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
  test.info().annotations.push({ type: 'seed', description: `CRASH_SEED=${seed}` });
  const rand = mulberry32(seed);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-crash-'));
  const file = path.join(dir, 'crash.cassette.json');
  const loader = createCassetteLoader();
  const fixture = await startFidelityFixture();
  const pool = makeBodyPool(rand);
  const stats = {
    answered: 0,
    inFlightJournaled: 0,
    closedCleanly: 0,
    changedBeforeRecovery: 0,
    recovered: 0,
    hits: 0,
    sidecars: 0,
    blobTemps: 0,
    killedStarting: 0,
  };
  const started = Date.now();
  // Broken guarantees are collected, so one run of the test shows every kind there is.
  const problems: string[] = [];
  const timing = { start: 0, traffic: 0, exit: 0, checks: 0 };

  let previousBytes: Buffer | undefined; // the cassette as the previous run left it (after recovery)
  let previous: Cassette | undefined;
  // Children boot (node and the imports: most of a start) while earlier runs go on; each waits for start().
  const booting = Array.from({ length: POOL }, () => spawnChild());
  try {
    for (let run = 0; run < RUNS; run++) {
      const mode: Mode = run % 2 === 0 ? 'record-missing' : 'record';
      const where = `run ${run} (${mode}, CRASH_SEED=${seed})`;
      const child = booting.shift()!;
      booting.push(spawnChild());
      // The kill: plain SIGKILL, or SIGTERM (the proxy starts closing) then SIGKILL 0-50 ms
      // later; half of those wait up to 400 ms, long enough to land inside (or after)
      // compaction. Usually 0-400 ms after the URL appears; sometimes while the proxy starts
      // (it takes the lock, recovers and opens its journal before printing the URL).
      const early = rand() < 0.15;
      const delay = Math.floor(rand() * (early ? 250 : 400));
      const viaTerm = !early && rand() < 0.35;
      const termToKill = Math.floor(rand() < 0.5 ? rand() * 50 : 50 + rand() * 350);
      let killer: NodeJS.Timeout | undefined;
      const arm = () =>
        (killer = setTimeout(() => {
          if (!viaTerm) return void child.proc.kill('SIGKILL');
          child.proc.kill('SIGTERM');
          setTimeout(() => child.proc.kill('SIGKILL'), termToKill);
        }, delay));
      const tStart = Date.now();
      const url = child.start(mode, fixture.url, file);
      if (early) void child.loaded.then(arm); // from the moment createProxy can begin
      let base: string | undefined;
      try {
        base = await url;
      } catch (error) {
        const message = (error as Error).message;
        // A lock a killed child left behind refuses the start; anything else is a real failure.
        if (message.includes(' is being recorded by '))
          problems.push(`${where}: the proxy could not start: ${message.split('\n').find((l) => l.includes(' is being recorded by '))}`);
        else if (!early) throw error;
        else stats.killedStarting++;
      }
      timing.start += Date.now() - tStart;
      const tUrl = Date.now();
      if (!early) arm();

      // Sequential traffic until the proxy stops answering.
      const sent: Sent[] = [];
      const answered: Sent[] = [];
      let inFlight: Sent | undefined;
      const repeatable = mode === 'record-missing' ? (previous?.interactions ?? []).filter((i) => i.request.method === 'GET') : [];
      for (let n = 0; base !== undefined; n++) {
        let request: Sent;
        if (n === 0 && repeatable.length > 0) {
          const old = repeatable[Math.floor(rand() * repeatable.length)]!;
          const encoding = old.request.headers.find(([k]) => k.toLowerCase() === 'accept-encoding');
          request = { method: 'GET', url: old.request.url, headers: encoding ? [encoding] : [], expectHit: true };
        } else {
          request = nextRequest(rand, pool, `${run}-${n}`);
        }
        sent.push(request);
        let answer: Answer;
        try {
          answer = await send(base, request);
        } catch {
          inFlight = request;
          break;
        }
        checkAnswer(request, answer, where);
        answered.push(request);
        if (request.expectHit) stats.hits++;
      }
      const tTraffic = Date.now();
      const exit = await child.exited;
      clearTimeout(killer);
      timing.traffic += tTraffic - tUrl;
      timing.exit += Date.now() - tTraffic;
      const tChecks = Date.now();
      const describeKill = () =>
        `kill: ${viaTerm ? `SIGTERM, SIGKILL ${termToKill} ms later` : 'SIGKILL'} ${delay} ms after ${early ? 'start' : 'the URL'}; child exit ${exit.code ?? exit.signal}; ${sent.length} sent`;
      stats.answered += answered.length;

      // (a) Before recovery: absent (nothing ever written), the previous bytes, or a valid cassette.
      if (!existsSync(file)) {
        expect(previousBytes, `${where}: the cassette vanished`).toBeUndefined();
      } else {
        const bytes = readFileSync(file);
        if (!previousBytes || !bytes.equals(previousBytes)) {
          stats.changedBeforeRecovery++;
          expect(() => loader.load(file), `${where}: the cassette left by the kill`).not.toThrow();
        }
      }
      const cleanExit = exit.code === 0;
      if (cleanExit) {
        stats.closedCleanly++;
        expect(existsSync(`${file}.journal`), `${where}: journal after a clean close`).toBe(false);
        expect(existsSync(`${file}.lock`), `${where}: lock after a clean close`).toBe(false);
      }

      // (b) What the next proxy start does.
      if (recoverCassette(file)) stats.recovered++;

      // (d) Nothing left behind.
      const leftovers = readdirSync(dir).filter((f) => f !== 'crash.cassette.json' && f !== 'crash.blobs');
      if (leftovers.length) {
        const lock = existsSync(`${file}.lock`) ? readFileSync(`${file}.lock`, 'utf8') : undefined;
        const holder = lock === undefined ? '' : `; the lock holds "${lock}", this run's child was ${child.pid}`;
        problems.push(`${where}: left beside the cassette after recovery: ${leftovers.join(', ')} (${describeKill()}${holder})`);
      }

      const answeredMisses = answered.filter((r) => !r.expectHit).map(keyOf);
      const inFlightKey = inFlight && !inFlight.expectHit ? keyOf(inFlight) : undefined;
      if (!existsSync(file)) {
        expect(previousBytes, `${where}: the cassette vanished`).toBeUndefined();
        expect(answeredMisses, `${where}: answered, yet no cassette`).toEqual([]);
        continue;
      }
      const bytes = readFileSync(file);
      let cassette!: Cassette;
      expect(() => (cassette = loader.load(file)), `${where}: the recovered cassette`).not.toThrow();
      stats.sidecars += checkSidecars(cassette, dir, where);

      const unchanged = previousBytes !== undefined && bytes.equals(previousBytes);
      let fresh: Interaction[];
      if (mode === 'record-missing') {
        const kept = previous?.interactions ?? [];
        expect(cassette.interactions.slice(0, kept.length), `${where}: record-missing must keep the previous interactions`).toEqual(kept);
        fresh = cassette.interactions.slice(kept.length);
      } else if (unchanged && answeredMisses.length === 0) {
        fresh = []; // a record journal with nothing in it leaves the cassette alone
      } else {
        fresh = cassette.interactions;
      }
      const freshKeys = fresh.map((i) => keyOf(i.request));
      const allowed = [answeredMisses, ...(inFlightKey ? [[...answeredMisses, inFlightKey]] : [])];
      if (!allowed.some((keys) => JSON.stringify(keys) === JSON.stringify(freshKeys))) {
        const missing = answeredMisses.filter((k) => !freshKeys.includes(k));
        const inFlightPath = inFlight ? keyOf(inFlight) : 'none';
        problems.push(
          `${where}: the recovered cassette does not hold exactly this run's answered interactions.\n` +
            `  answered (misses): ${JSON.stringify(answeredMisses)}\n  in flight at the kill: ${inFlightPath}\n` +
            `  recorded this run: ${JSON.stringify(freshKeys)}\n  answered but lost: ${JSON.stringify(missing)}\n  ${describeKill()}`,
        );
      }
      if (freshKeys.length > answeredMisses.length) stats.inFlightJournaled++;
      // The request bodies are the ones sent, byte for byte.
      const byKey = new Map(sent.map((r) => [keyOf(r), r]));
      for (const interaction of fresh) {
        const request = byKey.get(keyOf(interaction.request))!;
        expect(requestBodySha(interaction, dir), `${where}: request body of ${keyOf(request)}`).toBe(
          sha256(request.body ?? Buffer.alloc(0)),
        );
      }

      previousBytes = bytes;
      previous = cassette;
      timing.checks += Date.now() - tChecks;
    }
    // Not checked, only reported: spools of killed writers stay in the sidecar folder.
    const blobs = path.join(dir, 'crash.blobs');
    stats.blobTemps = existsSync(blobs) ? readdirSync(blobs).filter((f) => f.startsWith('.tmp-')).length : 0;
    for (const idle of booting) idle.proc.stdin!.end();
    for (const idle of booting) expect(await idle.exited).toEqual({ code: 0, signal: null });
  } finally {
    for (const proc of children) proc.kill('SIGKILL');
    await fixture.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const seconds = (Date.now() - started) / 1000;
  test.info().annotations.push({ type: 'stats', description: `${RUNS} runs in ${seconds.toFixed(1)} s: ${JSON.stringify(stats)}` });
  console.log(`proxy-crash: ${RUNS} runs in ${seconds.toFixed(1)} s, seed ${seed}: ${JSON.stringify(stats)}; ms ${JSON.stringify(timing)}`);
  expect(problems, `${problems.length} of ${RUNS} runs broke a guarantee`).toEqual([]);
  // The runs must actually have recorded something across the board, or the test proves nothing.
  expect(stats.answered).toBeGreaterThan(RUNS);
  expect(stats.sidecars).toBeGreaterThan(0);
});

test('a second recorder on the same cassette gets a clear lock error', async () => {
  test.setTimeout(60_000);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-lock-'));
  const file = path.join(dir, 'locked.cassette.json');
  const fixture = await startFidelityFixture();
  try {
    const first = spawnChild();
    const firstUrl = await first.start('record', fixture.url, file);
    const mine: Sent = { method: 'GET', url: '/length?who=first', headers: [] };
    checkAnswer(mine, await send(firstUrl, mine), 'first recorder');
    expect(readFileSync(`${file}.lock`, 'utf8').trim()).toBe(String(first.pid));
    const lockError = `${file} is being recorded by process ${first.pid}; wait for it to finish, or delete ${file}.lock if that process is not touchstone`;

    // A second proxy, as a user starts it: refused at start, naming the holder.
    const second = spawn(
      process.execPath,
      ['bin/touchstone.js', 'proxy', '--mode', 'record-missing', '--target', fixture.url, '--cassette', file, '--port', '0'],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    children.add(second);
    let out = '';
    second.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    second.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => second.once('exit', (c) => resolve(c)));
    children.delete(second);
    expect(code, out).not.toBe(0);
    expect(out).toContain(lockError);
    expect(out).not.toContain('proxy (record-missing) on');

    // An in-process writer gets the same error.
    expect(() => openCassetteWriter(file, { mode: 'record', name: 'locked' })).toThrow(lockError);

    // Neither refusal touched the first recorder's lock or journal; it records on and closes cleanly.
    expect(readFileSync(`${file}.lock`, 'utf8').trim()).toBe(String(first.pid));
    const another: Sent = { method: 'GET', url: '/gzip?who=first', headers: [['Accept-Encoding', 'gzip']] };
    checkAnswer(another, await send(firstUrl, another), 'first recorder');
    first.proc.kill('SIGTERM');
    expect(await first.exited).toEqual({ code: 0, signal: null });

    const cassette = createCassetteLoader().load(file);
    expect(cassette.interactions.map((i) => keyOf(i.request))).toEqual(['GET /length?who=first', 'GET /gzip?who=first']);
    expect(readdirSync(dir).sort()).toEqual(['locked.cassette.json']);
  } finally {
    for (const proc of children) proc.kill('SIGKILL');
    await fixture.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
