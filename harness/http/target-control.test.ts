// The control API of a target: what capabilities are read from it, what reset, clock and faults send, and how refusals read.
import { expect, test } from '@playwright/test';
import { HarnessError } from '../core/errors.js';
import { createTargetControl } from './target-control.js';
import type { WireRequest, WireResponse } from './transport.js';
import { harnessErrorOf } from '../../test-support/harness-error.js';

/** A control over a fake transport that records every request and answers `status` with `body`. */
function control(status: number, body: string | object = '', baseUrl = 'http://127.0.0.1:9/base//') {
  const sent: WireRequest[] = [];
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const transport = async (request: WireRequest): Promise<WireResponse> => {
    sent.push(request);
    return { status, headers: [], body: Buffer.from(text) };
  };
  return { target: createTargetControl(baseUrl, transport, 'touchstone-test/1'), sent };
}

test('capabilities are the strings of the capabilities list, read with a GET that wants JSON', async () => {
  const { target, sent } = control(200, { capabilities: ['reset', 'clock', 7, null, { x: 1 }, 'control.faults'] });
  expect(await target.capabilities()).toEqual(new Set(['reset', 'clock', 'control.faults']));
  expect(sent).toEqual([
    {
      method: 'GET',
      url: 'http://127.0.0.1:9/base/_conformance/capabilities',
      headers: [
        ['User-Agent', 'touchstone-test/1'],
        ['Accept', 'application/json'],
      ],
      body: undefined,
    },
  ]);
});

test('a target without the control API has no capabilities: not 200, not JSON, or no list', async () => {
  expect(await control(404, { capabilities: ['reset'] }).target.capabilities()).toEqual(new Set());
  expect(await control(500, { capabilities: ['reset'] }).target.capabilities()).toEqual(new Set());
  expect(await control(200, '<html>not here</html>').target.capabilities()).toEqual(new Set());
  expect(await control(200, {}).target.capabilities()).toEqual(new Set());
  expect(await control(200, { capabilities: 'reset' }).target.capabilities()).toEqual(new Set());
  expect(await control(200, 'null').target.capabilities()).toEqual(new Set());
});

test('reset POSTs without a body or Content-Type to the base URL without its trailing slashes', async () => {
  const { target, sent } = control(204);
  await target.reset();
  expect(sent).toEqual([
    {
      method: 'POST',
      url: 'http://127.0.0.1:9/base/_conformance/reset',
      headers: [
        ['User-Agent', 'touchstone-test/1'],
        ['Accept', 'application/json'],
      ],
      body: undefined,
    },
  ]);
});

test('clock POSTs the move as JSON with a JSON Content-Type', async () => {
  const { target, sent } = control(200, { ok: true }, 'http://127.0.0.1:9');
  await target.clock({ advance_seconds: 3600 });
  await target.clock({ set: '2030-01-01T00:00:00Z' });
  expect(sent.map((r) => [r.method, r.url])).toEqual([
    ['POST', 'http://127.0.0.1:9/_conformance/clock'],
    ['POST', 'http://127.0.0.1:9/_conformance/clock'],
  ]);
  expect(sent[0].headers).toEqual([
    ['User-Agent', 'touchstone-test/1'],
    ['Accept', 'application/json'],
    ['Content-Type', 'application/json'],
  ]);
  expect(JSON.parse(sent[0].body!.toString('utf8'))).toEqual({ advance_seconds: 3600 });
  expect(JSON.parse(sent[1].body!.toString('utf8'))).toEqual({ set: '2030-01-01T00:00:00Z' });
});

test('faults POSTs exactly the given fault ids, an empty list included', async () => {
  const { target, sent } = control(200);
  await target.faults(['skip-etag', 'wrong-link']);
  await target.faults([]);
  expect(sent[0].url).toBe('http://127.0.0.1:9/base/_conformance/faults');
  expect(sent[0].method).toBe('POST');
  expect(sent[0].headers).toContainEqual(['Content-Type', 'application/json']);
  expect(JSON.parse(sent[0].body!.toString('utf8'))).toEqual({ faults: ['skip-etag', 'wrong-link'] });
  expect(JSON.parse(sent[1].body!.toString('utf8'))).toEqual({ faults: [] });
});

test('a refused reset, clock or faults is a TARGET_IO error with the status and the JSON error or message', async () => {
  const reset = await harnessErrorOf(control(409, { error: 'no recording for POST /_conformance/reset' }).target.reset());
  expect(reset.code).toBe('TARGET_IO');
  expect(reset.message).toBe('control API reset answered 409: no recording for POST /_conformance/reset');

  const clock = await harnessErrorOf(control(400, { message: 'set must be a date' }).target.clock({ set: 'soon' }));
  expect(clock.code).toBe('TARGET_IO');
  expect(clock.message).toBe('control API clock answered 400: set must be a date');

  const faults = await harnessErrorOf(control(422, { error: 'unknown fault: nope', message: 'second' }).target.faults(['nope']));
  expect(faults.code).toBe('TARGET_IO');
  expect(faults.message).toBe('control API faults answered 422: unknown fault: nope');
});

test('a refusal that is not JSON shows the start of its body, and just the status when the body is empty', async () => {
  const long = `  proxy error: ${'x'.repeat(400)}`;
  const error = await harnessErrorOf(control(502, long).target.reset());
  expect(error.code).toBe('TARGET_IO');
  expect(error.message).toMatch(/^control API reset answered 502: proxy error: x+$/);
  expect(error.message).toContain(long.slice(0, 300).trim());
  expect(error.message).not.toContain(long.slice(0, 301).trim());

  const empty = await harnessErrorOf(control(503, '').target.reset());
  expect(empty.message).toBe('control API reset answered 503');

  const redirect = await harnessErrorOf(control(302, 'moved').target.reset());
  expect(redirect.message).toBe('control API reset answered 302: moved');
});

test('any 2xx answer is success, whatever its body', async () => {
  await expect(control(200, 'not json').target.reset()).resolves.toBeUndefined();
  await expect(control(201, { error: 'ignored on success' }).target.faults(['a'])).resolves.toBeUndefined();
  await expect(control(299).target.clock({ advance_seconds: 1 })).resolves.toBeUndefined();
});

test('a control call that gets no answer stays a harness error (TARGET_IO) that names the control API', async () => {
  const transport = async (request: WireRequest): Promise<WireResponse> => {
    throw new HarnessError('TARGET_IO', `${request.method} ${request.url}: connect ECONNREFUSED 127.0.0.1:9`);
  };
  const target = createTargetControl('http://127.0.0.1:9', transport, 'touchstone-test/1');
  const error = await harnessErrorOf(target.reset());
  expect(error.code).toBe('TARGET_IO');
  expect(error.message).toBe(
    'the control API (POST /_conformance/reset) gave no answer: POST http://127.0.0.1:9/_conformance/reset: connect ECONNREFUSED 127.0.0.1:9',
  );
});
