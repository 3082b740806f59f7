// Test support: what a client saw, reduced to what the byte-exact round trip compares:
// status, every header pair in order, and the SHA-256 of the body bytes as sent.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from '@playwright/test';
import type { HeaderPairs } from '../harness/core/results.js';
import { createHttpTransport, headerValue } from '../harness/http/transport.js';
import { startFidelityFixture, type FixtureServer } from './fidelity-fixture.js';

export interface SeenResponse {
  status: number;
  headers: HeaderPairs;
  sha256: string;
  body: Buffer;
}

export interface TestRequest {
  method?: string;
  path: string;
  headers?: HeaderPairs;
  body?: string | Buffer;
  cassette?: string;
}

export function createTestClient() {
  const transport = createHttpTransport({ timeoutMs: 20_000 });
  return {
    async send(base: string, request: TestRequest): Promise<SeenResponse> {
      const headers: HeaderPairs = [...(request.headers ?? [])];
      if (request.cassette) headers.push(['x-touchstone-cassette', request.cassette]);
      const response = await transport.send({
        method: request.method ?? 'GET',
        url: `${base}${request.path}`,
        headers,
        body: request.body === undefined ? undefined : Buffer.from(request.body),
      });
      return { ...response, sha256: createHash('sha256').update(response.body).digest('hex') };
    },
    json: (response: SeenResponse) => JSON.parse(response.body.toString('utf8')) as unknown,
    header: (response: SeenResponse, name: string) => headerValue(response.headers, name),
    close: () => transport.close(),
  };
}

/**
 * For a test file: a fresh scratch folder and fixture upstream for each test, one client
 * for the file. Call at the top level; read `dir` and `fixture` inside tests.
 */
export function useProxyTestBed(): { dir: string; fixture: FixtureServer; client: ReturnType<typeof createTestClient> } {
  const bed = { dir: '', fixture: undefined as unknown as FixtureServer, client: createTestClient() };
  test.beforeEach(async () => {
    bed.dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-proxy-test-'));
    bed.fixture = await startFidelityFixture();
  });
  test.afterEach(async () => {
    await bed.fixture.close();
    rmSync(bed.dir, { recursive: true, force: true });
  });
  test.afterAll(() => bed.client.close());
  return bed;
}
