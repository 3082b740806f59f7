import { expect, test } from '@playwright/test';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Interaction } from './cassette-format.js';
import { loadCassetteFile } from './cassette-load.js';
import { serializeCassette } from './cassette-serialize.js';
import { openCassetteWriter, recoverCassette } from './cassette-store.js';

let dir: string;
let file: string;
test.beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-store-'));
  file = path.join(dir, 'nested', 'w.cassette.json');
});
test.afterEach(() => rmSync(dir, { recursive: true, force: true }));

const at = (iso: string) => () => new Date(iso);

function interaction(seq: number, url: string, text = 'ok'): Interaction {
  return { seq, request: { method: 'GET', url, headers: [['accept', '*/*']] }, response: { status: 200, headers: [], body: { text } } };
}

function record(urls: string[], now = at('2026-01-01T00:00:00Z'), mode: 'record' | 'record-missing' = 'record') {
  const writer = openCassetteWriter(file, { mode, name: 'w', now });
  const base = writer.existing().length;
  urls.forEach((url, i) => writer.append(interaction(base + i + 1, url)));
  return writer.close({ redactions: ['request.headers.authorization'] });
}

/** A pid that certainly belonged to a process that has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!;
}

const leftovers = (): string[] => readdirSync(path.dirname(file)).filter((f) => f !== 'w.cassette.json');

test('closing compacts the journal into a sorted, renumbered cassette and removes journal and lock', () => {
  const writer = openCassetteWriter(file, { mode: 'record', name: 'w', now: at('2026-01-01T00:00:00Z') });
  expect(existsSync(`${file}.lock`)).toBe(true);
  expect(readFileSync(`${file}.lock`, 'utf8')).toBe(String(process.pid));
  expect(writer.existing()).toEqual([]);
  writer.append(interaction(7, '/second'));
  writer.append(interaction(3, '/first'));
  const header = JSON.parse(readFileSync(`${file}.journal`, 'utf8').split('\n')[0]!);
  expect(header).toEqual({ journal: 1, mode: 'record', name: 'w', base: null });
  const cassette = writer.close({ redactions: ['b', 'a', 'b'] });
  expect(cassette.interactions.map((i) => [i.seq, i.request.url])).toEqual([
    [1, '/first'],
    [2, '/second'],
  ]);
  expect(cassette.redactions).toEqual(['a', 'b']);
  expect(cassette.recordedAt).toBe('2026-01-01T00:00:00.000Z');
  expect(readFileSync(file, 'utf8')).toBe(serializeCassette(cassette));
  expect(leftovers()).toEqual([]);
  expect(() => writer.append(interaction(1, '/late'))).toThrow(/append after the cassette writer was closed/);
});

test('re-recording identical traffic leaves a byte-identical file; changed traffic moves recordedAt', () => {
  record(['/a', '/b'], at('2026-01-01T00:00:00Z'));
  const first = readFileSync(file);
  record(['/a', '/b'], at('2027-05-05T00:00:00Z'));
  expect(readFileSync(file).equals(first)).toBe(true);
  const changed = record(['/a', '/c'], at('2027-05-05T00:00:00Z'));
  expect(changed.recordedAt).toBe('2027-05-05T00:00:00.000Z');
});

test('SOURCE_DATE_EPOCH pins recordedAt when no clock is given', () => {
  const saved = process.env.SOURCE_DATE_EPOCH;
  process.env.SOURCE_DATE_EPOCH = '1700000000';
  try {
    const writer = openCassetteWriter(file, { mode: 'record', name: 'w' });
    expect(writer.close().recordedAt).toBe('2023-11-14T22:13:20.000Z');
    // Not a number, or a date no cassette can hold (past year 9999, past what Date holds):
    // refused before anything is opened, not a crash at close.
    for (const epoch of ['yesterday', '253402300800', '99999999999999']) {
      process.env.SOURCE_DATE_EPOCH = epoch;
      expect(() => openCassetteWriter(file, { mode: 'record', name: 'w' })).toThrow(`SOURCE_DATE_EPOCH "${epoch}" must be whole seconds`);
    }
    expect(leftovers()).toEqual([]);
  } finally {
    if (saved === undefined) delete process.env.SOURCE_DATE_EPOCH;
    else process.env.SOURCE_DATE_EPOCH = saved;
  }
});

test('record-missing appends after the existing interactions and merges redaction notes', () => {
  record(['/a', '/b']);
  const writer = openCassetteWriter(file, { mode: 'record-missing', name: 'w', now: at('2026-02-02T00:00:00Z') });
  expect(writer.existing().map((i) => i.request.url)).toEqual(['/a', '/b']);
  // Whatever seqs the recorder used, new interactions go after the old ones.
  writer.append(interaction(2, '/d'));
  writer.append(interaction(1, '/c'));
  const cassette = writer.close({ redactions: ['response.headers.set-cookie'] });
  expect(cassette.interactions.map((i) => [i.seq, i.request.url])).toEqual([
    [1, '/a'],
    [2, '/b'],
    [3, '/c'],
    [4, '/d'],
  ]);
  expect(cassette.redactions).toEqual(['request.headers.authorization', 'response.headers.set-cookie']);
  expect(loadCassetteFile(file)).toEqual(cassette);
  // Nothing new: the file stays byte-identical.
  const before = readFileSync(file);
  openCassetteWriter(file, { mode: 'record-missing', name: 'w', now: at('2030-01-01T00:00:00Z') }).close();
  expect(readFileSync(file).equals(before)).toBe(true);
});

test('a live lock is refused, also within one process; abandon leaves the cassette alone', () => {
  record(['/a']);
  const before = readFileSync(file);
  const writer = openCassetteWriter(file, { mode: 'record', name: 'w' });
  writer.append(interaction(1, '/z'));
  expect(() => openCassetteWriter(file, { mode: 'record', name: 'w' })).toThrow(
    new RegExp(
      `w\\.cassette\\.json is being recorded by process ${process.pid}; wait for it to finish, or delete .*w\\.cassette\\.json\\.lock`,
    ),
  );
  expect(recoverCassette(file)).toBeUndefined(); // the live writer owns its journal
  expect(existsSync(`${file}.journal`)).toBe(true);
  writer.abandon();
  expect(readFileSync(file).equals(before)).toBe(true);
  expect(leftovers()).toEqual([]);
});

test('a torn journal under a stale lock is recovered: acknowledged lines kept, the torn one dropped', () => {
  record(['/a']);
  const base = readFileSync(file);
  const header = { journal: 1, mode: 'record-missing', name: 'w', base: createHash('sha256').update(base).digest('hex') };
  const lines = [header, interaction(2, '/b'), interaction(3, '/c')].map((l) => `${JSON.stringify(l)}\n`).join('');
  writeFileSync(`${file}.journal`, lines + JSON.stringify(interaction(4, '/torn')).slice(0, 40));
  writeFileSync(`${file}.lock`, String(deadPid()));
  writeFileSync(`${file}.tmp-${deadPid()}`, '{"cassetteVersion": 1, "na');
  const recovered = recoverCassette(file);
  expect(recovered?.interactions.map((i) => i.request.url)).toEqual(['/a', '/b', '/c']);
  expect(loadCassetteFile(file)).toEqual(recovered);
  expect(leftovers()).toEqual([]);
  // Recovery is idempotent: nothing left to do.
  expect(recoverCassette(file)).toBeUndefined();
});

test('a recovered journal is marked incomplete; a closed recording never is, and record mode once replaces it', () => {
  record(['/a']);
  const base = createHash('sha256').update(readFileSync(file)).digest('hex');
  writeFileSync(
    `${file}.journal`,
    [{ journal: 1, mode: 'record-missing', name: 'w', base }, interaction(2, '/b')].map((l) => `${JSON.stringify(l)}\n`).join(''),
  );
  writeFileSync(`${file}.lock`, String(deadPid()));
  expect(recoverCassette(file)?.incomplete).toBe(true);
  expect(readFileSync(file, 'utf8')).toContain('"incomplete": true,\n');
  expect(loadCassetteFile(file).interactions.map((i) => i.request.url)).toEqual(['/a', '/b']);
  // Recording it again, whole, leaves no mark.
  expect(record(['/a', '/b']).incomplete).toBeUndefined();
  expect(readFileSync(file, 'utf8')).not.toContain('incomplete');
});

test("a journal whose writer said 'discard' is dropped by recovery: the cassette before stays byte for byte", () => {
  record(['/a']);
  const before = readFileSync(file);
  const writer = openCassetteWriter(file, { mode: 'record', name: 'w', crashed: 'discard' });
  writer.append(interaction(1, '/partial'));
  // The writer's process dies here: its lock now names a pid that is gone.
  writeFileSync(`${file}.lock`, String(deadPid()));
  expect(recoverCassette(file)).toBeUndefined();
  expect(readFileSync(file).equals(before)).toBe(true);
  expect(leftovers()).toEqual([]);
});

test('a journal that was already compacted (crash between rename and unlink) is not applied twice', () => {
  record(['/a']);
  writeFileSync(
    `${file}.journal`,
    `${JSON.stringify({ journal: 1, mode: 'record-missing', name: 'w', base: 'f'.repeat(64) })}\n${JSON.stringify(interaction(2, '/b'))}\n`,
  );
  const before = readFileSync(file);
  expect(recoverCassette(file)).toBeUndefined();
  expect(readFileSync(file).equals(before)).toBe(true);
  expect(leftovers()).toEqual([]);
});

test('a stale lock is taken over by a new writer, which first recovers the journal', () => {
  record([]);
  writeFileSync(`${file}.lock`, String(deadPid()));
  writeFileSync(
    `${file}.journal`,
    `${JSON.stringify({ journal: 1, mode: 'record', name: 'w', base: null })}\n${JSON.stringify(interaction(1, '/x'))}\n`,
  );
  // base null no longer matches the existing file: already applied, so only dropped.
  const writer = openCassetteWriter(file, { mode: 'record-missing', name: 'w' });
  expect(readFileSync(`${file}.lock`, 'utf8')).toBe(String(process.pid));
  expect(writer.existing()).toEqual([]);
  writer.abandon();

  rmSync(file);
  writeFileSync(`${file}.lock`, ''); // debris: a lock is always linked into place holding its pid
  writeFileSync(
    `${file}.journal`,
    `${JSON.stringify({ journal: 1, mode: 'record', name: 'w', base: null })}\n${JSON.stringify(interaction(5, '/y'))}\n`,
  );
  const taken = openCassetteWriter(file, { mode: 'record-missing', name: 'w' });
  expect(taken.existing().map((i) => [i.seq, i.request.url])).toEqual([[1, '/y']]);
  taken.abandon();
});

test('recovery clears the lock of a writer killed before its journal existed, and its lock draft', () => {
  record([]);
  const dead = deadPid();
  writeFileSync(`${file}.lock`, String(dead));
  writeFileSync(`${file}.lock.${dead}`, String(dead));
  expect(recoverCassette(file)).toBeUndefined();
  expect(leftovers()).toEqual([]);
  // Killed between writing its draft and linking it: no lock, no journal, only the draft.
  writeFileSync(`${file}.lock.${dead}`, String(dead));
  expect(recoverCassette(file)).toBeUndefined();
  expect(leftovers()).toEqual([]);
});

test('a record session with no interactions leaves the cassette as it was', () => {
  record(['/kept']);
  const before = readFileSync(file);
  openCassetteWriter(file, { mode: 'record', name: 'w' }).close();
  expect(readFileSync(file).equals(before)).toBe(true);
  expect(leftovers()).toEqual([]);
});

test('a damaged journal line is refused, naming the journal and the line', () => {
  file = path.join(dir, 'w.cassette.json');
  writeFileSync(`${file}.journal`, `${JSON.stringify({ journal: 1, mode: 'record', name: 'w', base: null })}\nnot json\n{}\n`);
  expect(() => recoverCassette(file)).toThrow(/w\.cassette\.json\.journal:2: not a journal line/);
  expect(existsSync(`${file}.lock`)).toBe(false);
  writeFileSync(`${file}.journal`, `${JSON.stringify({ journal: 2, mode: 'record', name: 'w' })}\n`);
  expect(() => recoverCassette(file)).toThrow(/not a version 1 cassette journal/);
});

test('kill -9 at random moments leaves the previous cassette or a complete new one, losing no acknowledged interaction', async () => {
  test.setTimeout(60_000);
  const store = fileURLToPath(new URL('./cassette-store.ts', import.meta.url));
  const child = path.join(dir, 'child.mts');
  writeFileSync(
    child,
    `import { openCassetteWriter } from ${JSON.stringify(store)};
const writer = openCassetteWriter(process.argv[2], { mode: 'record-missing', name: 'w' });
const base = writer.existing().length;
process.stdout.write('ready\\n');
for (let i = 1; i <= 300; i++) {
  writer.append({ seq: base + i, request: { method: 'GET', url: '/n/' + i, headers: [] }, response: { status: 200, headers: [], body: { text: 'x'.repeat(4000) } } });
  process.stdout.write('ack ' + i + '\\n');
}
writer.close();
process.stdout.write('closed\\n');
`,
  );
  record(['/start'], undefined, 'record-missing');
  for (let round = 0; round < 6; round++) {
    const before = loadCassetteFile(file).interactions.length;
    const proc = spawn(process.execPath, ['--import', 'tsx', child, file], {
      cwd: fileURLToPath(new URL('../../', import.meta.url)),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    const exited = new Promise<void>((resolve) => proc.on('exit', () => resolve()));
    await new Promise<void>((resolve) =>
      proc.stdout.on('data', (d: Buffer) => ((out += d.toString()), out.includes('ready') && resolve())),
    );
    // Random moments spread over the phases: appending, compacting, done.
    await new Promise((r) => setTimeout(r, Math.random() * [20, 20, 300, 300, 700, 700][round]!));
    proc.kill('SIGKILL');
    await exited;
    const acked = Math.max(0, ...[...out.matchAll(/ack (\d+)\n/g)].map((m) => Number(m[1])));
    // The final path never holds a partial file, whatever the timing.
    const onDisk = loadCassetteFile(file).interactions.length;
    expect(onDisk === before || onDisk === before + 300).toBe(true);
    recoverCassette(file);
    const after = loadCassetteFile(file).interactions;
    expect(after.length).toBeGreaterThanOrEqual(before + acked);
    expect(after.length).toBeLessThanOrEqual(before + 300);
    expect(after.map((i) => i.seq)).toEqual(after.map((_, i) => i + 1));
    expect(leftovers()).toEqual([]);
  }
});

test('a journal that cannot make a valid cassette is set aside, named in the error, and blocks no later recording', () => {
  const writer = openCassetteWriter(file, { mode: 'record', name: 'w' });
  // An empty header name: the cassette schema refuses it, so no cassette can be written.
  writer.append({ ...interaction(1, '/bad'), request: { method: 'GET', url: '/bad', headers: [['', 'x']] } });
  expect(() => writer.close()).toThrow(/invalid cassette: .*w\.cassette\.json\.journal\.refused/);
  expect(existsSync(file)).toBe(false);
  expect(leftovers()).toEqual(['w.cassette.json.journal.refused']);
  expect(readFileSync(`${file}.journal.refused`, 'utf8')).toContain('/bad');
  expect(record(['/good']).interactions.map((i) => i.request.url)).toEqual(['/good']);
});
