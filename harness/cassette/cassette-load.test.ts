import { expect, test } from '@playwright/test';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { HarnessError } from '../core/errors.js';
import { projectPath } from '../../lib/project-files.js';
import { CASSETTE_SUFFIX, type Body } from './cassette-format.js';
import { loadCassetteFile, parseCassette, readBodyBytes, readWireBytes } from './cassette-load.js';
import { serializeCassette } from './cassette-serialize.js';

const FILE = '/work/cassettes/w.cassette.json';

/** A valid cassette as plain data, for tests to damage. */
function good(): Record<string, any> {
  return {
    cassetteVersion: 1,
    name: 'w',
    recordedAt: '2026-01-01T00:00:00.000Z',
    redactions: [],
    interactions: [
      {
        seq: 1,
        request: { method: 'GET', url: '/a', headers: [['accept', '*/*']] },
        response: { status: 200, headers: [], body: { json: { ok: true } } },
      },
      {
        seq: 2,
        request: { method: 'GET', url: '/b', headers: [] },
        response: { status: 200, headers: [], body: { file: 'w.blobs/sha256-x', sha256: 'b'.repeat(64), size: 3 } },
      },
    ],
  };
}

function refusal(text: string): string {
  try {
    parseCassette(text, FILE);
  } catch (error) {
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).code).toBe('CONFIG');
    expect((error as Error).message.startsWith(`${FILE}: `)).toBe(true);
    return (error as Error).message;
  }
  throw new Error(`accepted: ${text.slice(0, 200)}`);
}

const damaged = (edit: (c: Record<string, any>) => void): string => {
  const c = good();
  edit(c);
  return JSON.stringify(c);
};

test('a valid cassette loads as plain data', () => {
  expect(parseCassette(JSON.stringify(good()), FILE)).toEqual(good());
});

test('not JSON, not UTF-8 and not an object are refused', () => {
  expect(refusal('{"cassetteVersion": 1,')).toMatch(/not valid JSON/);
  expect(refusal('[]')).toMatch(/cassetteVersion missing .*no longer supported/);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-load-'));
  try {
    const file = path.join(dir, 'bad.cassette.json');
    writeFileSync(file, Buffer.from([0x7b, 0xff, 0x7d]));
    expect(() => loadCassetteFile(file)).toThrow(/bad\.cassette\.json: not a cassette: the file is not valid UTF-8/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('__proto__ is refused at every depth, constructor and prototype in the structure', () => {
  const proto = (text: string): string => refusal(text);
  expect(proto('{"__proto__": {"polluted": true}, "cassetteVersion": 1}')).toMatch(/key "__proto__" at \/__proto__/);
  const inside = JSON.stringify(good()).replace('"seq":1,', '"seq":1,"__proto__":{"x":1},');
  expect(proto(inside)).toMatch(/key "__proto__" at \/interactions\/0\/__proto__/);
  const inJson = JSON.stringify(good()).replace('{"ok":true}', '{"ok":{"deep":[{"__proto__":{"admin":true}}]}}');
  expect(proto(inJson)).toMatch(/key "__proto__" at \/interactions\/0\/response\/body\/json\/ok\/deep\/0\/__proto__/);
  const inHeaders = JSON.stringify(good()).replace('"headers":[["accept","*/*"]]', '"headers":[{"constructor":1}]');
  expect(proto(inHeaders)).toMatch(/key "constructor" at \/interactions\/0\/request\/headers\/0\/constructor/);
  expect(proto(damaged((c) => (c.interactions[0].response.prototype = {})))).toMatch(/key "prototype"/);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  // Recorded data may legitimately name a constructor.
  const data = damaged((c) => (c.interactions[0].response.body.json = { constructor: 'Widget', prototype: 1 }));
  expect(parseCassette(data, FILE).interactions[0]!.response.body).toEqual({ json: { constructor: 'Widget', prototype: 1 } });
});

test('an unknown major version is refused with a migration hint', () => {
  expect(refusal(damaged((c) => (c.cassetteVersion = 2)))).toMatch(
    /cassetteVersion 2 was written by a newer touchstone; upgrade touchstone/,
  );
  expect(refusal(damaged((c) => (c.cassetteVersion = 0)))).toMatch(/cassetteVersion 0 is no longer supported .*re-record/);
  expect(refusal(damaged((c) => (c.cassetteVersion = '1')))).toMatch(/cassetteVersion "1" is no longer supported/);
  expect(refusal(damaged((c) => delete c.cassetteVersion))).toMatch(/cassetteVersion missing/);
});

test('schema violations name the JSON path of the problem', () => {
  expect(refusal(damaged((c) => (c.interactions[0].extra = 1)))).toMatch(/\/interactions\/0 must NOT have additional properties \(extra\)/);
  expect(refusal(damaged((c) => (c.interactions[0].request.headers = [['a', 'b', 'c']])))).toMatch(
    /\/interactions\/0\/request\/headers\/0 must NOT have more than 2 items/,
  );
  expect(refusal(damaged((c) => (c.interactions[0].response.body = { json: 1, text: '1' })))).toMatch(
    /\/interactions\/0\/response\/body must match exactly one schema/,
  );
  expect(refusal(damaged((c) => (c.interactions[1].response.body.size = undefined)))).toMatch(/\/interactions\/1\/response\/body/);
  expect(refusal(damaged((c) => (c.interactions[0].response.body = { text: 'x', contentEncoding: 'zstd' })))).toMatch(
    /contentEncoding must be equal to one of the allowed values/,
  );
});

test('body shapes the schema refuses: one representation each, digests only on requests, encoded only with its coding', () => {
  const digest = { sha256: 'c'.repeat(64), size: 5 };
  const request = (body: unknown) => refusal(damaged((c) => (c.interactions[0].request.body = body)));
  const response = (body: unknown) => refusal(damaged((c) => (c.interactions[0].response.body = body)));
  // A digest alone stands for a request body only; a response's bytes are replayed, so they are kept.
  expect(response(digest)).toMatch(/\/interactions\/0\/response\/body/);
  expect(request({ ...digest, text: 'x' })).toMatch(/\/interactions\/0\/request\/body/);
  expect(request({ sha256: digest.sha256 })).toMatch(/\/interactions\/0\/request\/body/);
  expect(request({ ...digest, file: '' })).toMatch(/\/interactions\/0\/request\/body/);
  expect(request({ ...digest, extra: 1 })).toMatch(/\/interactions\/0\/request\/body/);
  expect(response({})).toMatch(/\/interactions\/0\/response\/body must have required property 'json'/);
  expect(response({ text: 'x', base64: 'AA==' })).toMatch(/must match exactly one schema/);
  expect(response({ text: 'x', encoded: { base64: 'AA==' } })).toMatch(
    /must have property contentEncoding when property encoded is present/,
  );
  expect(response({ text: 'x', contentEncoding: 'gzip', encoded: { base64: 'AA==', ...digest } })).toMatch(/\/response\/body\/encoded/);
  expect(response({ text: 'x', sha256: digest.sha256 })).toMatch(/must have propert/);
  expect(refusal(damaged((c) => (c.redactions = ['a', 'a'])))).toMatch(/\/redactions must NOT have duplicate items/);
  expect(refusal(damaged((c) => (c.recordedAt = 'yesterday')))).toMatch(/\/recordedAt must match format "date-time"/);
  expect(refusal(damaged((c) => (c.interactions[0].request.method = 'GE T')))).toMatch(/\/request\/method must match pattern/);
  // Negative control: the same digest is a request body the schema takes, with or without its coding.
  for (const body of [digest, { ...digest, contentEncoding: 'gzip' }]) {
    expect(
      parseCassette(
        damaged((c) => (c.interactions[0].request.body = body)),
        FILE,
      ).interactions[0]!.request.body,
    ).toEqual(body);
  }
});

test('every committed cassette loads, and writes back byte for byte', () => {
  const files = readdirSync(projectPath('cassettes'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith(CASSETTE_SUFFIX));
  expect(files.length).toBeGreaterThan(100);
  for (const file of files) {
    const full = projectPath(path.join('cassettes', file));
    expect(serializeCassette(loadCassetteFile(full)), file).toBe(readFileSync(full, 'utf8'));
  }
});

test('numbers that are not safe integers, and statuses outside 100..999, are refused', () => {
  const huge = JSON.stringify(good()).replace('"seq":1,', '"seq":9007199254740993,');
  expect(refusal(huge)).toMatch(/\/interactions\/0\/seq must be <= 9007199254740991/);
  const enormous = JSON.stringify(good()).replace('"size":3', '"size":1e400');
  // 1e400 parses as Infinity, which Ajv's strict mode refuses as a number at all.
  expect(refusal(enormous)).toMatch(/\/interactions\/1\/response\/body\/size must be integer/);
  expect(refusal(damaged((c) => (c.interactions[0].response.status = 1000)))).toMatch(/\/interactions\/0\/response\/status must be <= 999/);
  expect(refusal(damaged((c) => (c.interactions[0].response.status = 99)))).toMatch(/status must be >= 100/);
  expect(refusal(damaged((c) => (c.interactions[0].response.status = 200.5)))).toMatch(/status must be integer/);
  expect(refusal(damaged((c) => (c.interactions[0].seq = 0)))).toMatch(/seq must be >= 1/);
});

test('seq must strictly increase', () => {
  expect(refusal(damaged((c) => (c.interactions[1].seq = 1)))).toMatch(/\/interactions\/1\/seq 1 does not increase \(previous seq is 1\)/);
});

test('sidecar paths that could escape the cassette folder are refused', () => {
  const withFile = (file: string): string => refusal(damaged((c) => (c.interactions[1].response.body.file = file)));
  expect(withFile('../secrets/sha256-x')).toMatch(
    /\/interactions\/1\/response\/body\/file "\.\.\/secrets\/sha256-x" has an empty, "\." or "\.\." segment/,
  );
  expect(withFile('w.blobs/../../etc/passwd')).toMatch(/"\.\." segment/);
  expect(withFile('/etc/passwd')).toMatch(/is absolute/);
  expect(withFile('C:/Windows/win.ini')).toMatch(/is absolute/);
  expect(withFile('w.blobs\\..\\x')).toMatch(/contains a backslash/);
  expect(withFile('w.blobs//x')).toMatch(/empty/);
  const encoded = damaged(
    (c) =>
      (c.interactions[0].response.body = {
        contentEncoding: 'gzip',
        text: 'x',
        encoded: { file: '../x', sha256: 'b'.repeat(64), size: 1 },
      }),
  );
  expect(refusal(encoded)).toMatch(/\/response\/body\/encoded\/file "\.\.\/x"/);
});

test('base64 must be canonical', () => {
  const withBase64 = (base64: string): string => refusal(damaged((c) => (c.interactions[0].response.body = { base64 })));
  expect(withBase64('aGk')).toMatch(/\/interactions\/0\/response\/body\/base64 is not canonical base64/);
  expect(withBase64('aGl=')).toMatch(/not canonical/); // non-zero trailing bits
  expect(withBase64('aG k=')).toMatch(/base64 must match pattern/);
  expect(
    parseCassette(
      damaged((c) => (c.interactions[0].response.body = { base64: 'aGk=' })),
      FILE,
    ),
  ).toBeTruthy();
});

test('body bytes: inline forms, verified sidecars, and the wire form', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-load-'));
  try {
    const bytes = Buffer.from('sidecar bytes');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    mkdirSync(path.join(dir, 'w.blobs'));
    writeFileSync(path.join(dir, 'w.blobs', `sha256-${sha256}`), bytes);
    const sidecar: Body = { file: `w.blobs/sha256-${sha256}`, sha256, size: bytes.length };
    expect(readBodyBytes(sidecar, dir)).toEqual(bytes);
    expect(() => readBodyBytes({ ...sidecar, size: 99 }, dir)).toThrow(
      /sidecar .*w\.blobs\/sha256-[0-9a-f]+: size 13 differs from the recorded 99/,
    );
    expect(() => readBodyBytes({ ...sidecar, sha256: 'c'.repeat(64) }, dir)).toThrow(/sha256 [0-9a-f]{64} differs from the recorded c{64}/);
    expect(() => readBodyBytes({ ...sidecar, file: 'w.blobs/missing' }, dir)).toThrow(/w\.blobs\/missing: cannot read/);
    expect(() => readBodyBytes({ ...sidecar, file: '../x' }, dir)).toThrow(/"\.\." segment/);
    symlinkSync('/etc/hostname', path.join(dir, 'w.blobs', 'link'));
    expect(() => readBodyBytes({ ...sidecar, file: 'w.blobs/link' }, dir)).toThrow(/links outside the cassette's folder/);

    expect(readBodyBytes({ json: { a: 1 } }, dir).toString()).toBe('{"a":1}');
    expect(readBodyBytes({ base64: '/w==' }, dir)).toEqual(Buffer.from([0xff]));
    expect(readWireBytes({ text: 'plain' }, dir).toString()).toBe('plain');
    const gzipped = readWireBytes({ contentEncoding: 'gzip', text: 'hello' }, dir);
    expect(gzipped).toEqual(zlib.gzipSync('hello'));
    const level1 = zlib.gzipSync('hello', { level: 1 });
    expect(readWireBytes({ contentEncoding: 'gzip', text: 'hello', encoded: { base64: level1.toString('base64') } }, dir)).toEqual(level1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
