// The embedded reference in worker threads, one per lane of a run with several workers
// (startReferenceLanes, startReferenceThread): the lanes answer, close() ends them, and
// whatever goes wrong in a thread reaches the CLI as a clear HarnessError, never a hang.
// Loaded from the sources here, so the threads run reference-thread.ts under tsx (a whole run
// from dist/ runs the compiled thread: whole-run.test.ts).
import { expect, test } from '@playwright/test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { harnessErrorOf } from '../../test-support/harness-error.js';
import { type ReferenceOptions, startReferenceLanes, startReferenceThread, type ThreadModule } from './embedded-reference.js';

let dir: string;
test.beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-reference-thread-'));
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A thread module standing in for reference-thread.ts, to make a thread fail in a given way. */
function threadModule(name: string, body: string): ThreadModule {
  const file = path.join(dir, `${name}.mjs`);
  writeFileSync(file, `import { parentPort } from 'node:worker_threads';\n${body}\n`);
  return [pathToFileURL(file), {}];
}

test('two lanes are two references, each answering on its own port; close() ends them', async () => {
  const lanes = await startReferenceLanes(2);
  const urls = lanes.map((lane) => lane.url);
  expect(new Set(urls).size).toBe(2);
  for (const url of urls) expect((await fetch(`${url}/_conformance/openapi.json`)).status).toBe(200);
  await Promise.all(lanes.map((lane) => lane.close()));
  for (const url of urls) await expect(fetch(`${url}/_conformance/openapi.json`)).rejects.toThrow();
});

test("a reference that cannot start in its thread gives the thread's HarnessError, its code kept", async () => {
  const error = await harnessErrorOf(startReferenceLanes(2, { faults: ['no.such-fault'] }));
  expect(error.code).toBe('USAGE');
  expect(error.message).toMatch(/^unknown fault no\.such-fault; the reference has: /);

  const busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  const { port } = busy.address() as { port: number };
  try {
    const taken = await harnessErrorOf(startReferenceThread({ port }));
    expect(taken.message).toContain(`cannot listen on 127.0.0.1:${port}: `);
  } finally {
    busy.close();
  }
});

test('options that are not data cannot reach the thread: a usage error says so', async () => {
  const options = { faults: [() => 'pagination.no-link-header'] } as unknown as ReferenceOptions;
  const error = await harnessErrorOf(startReferenceThread(options, 'the embedded reference of lane 1 of 2'));
  expect(error.code).toBe('USAGE');
  expect(error.message).toMatch(
    /^the options of the embedded reference of lane 1 of 2 cannot be sent to its thread \(they must be data\): /,
  );
});

test('a thread that dies, before it listens or after, is a HarnessError naming the lane and the cause', async () => {
  const thrown = await harnessErrorOf(startReferenceThread({}, 'lane 2', threadModule('throws', "throw new Error('broken at start');")));
  expect(thrown.code).toBe('TARGET_UNREACHABLE');
  expect(thrown.message).toMatch(/^lane 2 stopped: Error: broken at start\n/);

  const exits = await harnessErrorOf(startReferenceThread({}, 'lane 2', threadModule('exits', 'process.exit(3);')));
  expect(exits.message).toBe('lane 2 stopped (its thread ended with code 3)');

  // Listens, then dies: the run goes on (its requests to the lane fail), and close() says why.
  const later = await startReferenceThread(
    {},
    'lane 2',
    threadModule(
      'dies-later',
      "parentPort.postMessage({ listening: 'http://127.0.0.1:9' });\nsetTimeout(() => { throw new Error('broken later'); }, 50);",
    ),
  );
  expect(later.url).toBe('http://127.0.0.1:9');
  await new Promise((resolve) => setTimeout(resolve, 500));
  const died = await harnessErrorOf(later.close());
  expect(died.message).toMatch(/^lane 2 stopped: Error: broken later\n/);
});
