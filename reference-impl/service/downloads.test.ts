// Download links: once each, until they expire on the service clock, without credentials.
import { expect, test } from '@playwright/test';
import Fastify from 'fastify';
import { createClock } from './clock.js';
import { createDownloads, registerDownloadRoute } from './downloads.js';
import { createFaults } from './faults.js';
import { registerErrorHandling } from './error-handler.js';

function setup() {
  const clock = createClock('2026-06-01T12:00:00Z');
  const downloads = createDownloads(clock, createFaults());
  const app = Fastify();
  registerErrorHandling(app);
  registerDownloadRoute(app, downloads);
  return { clock, downloads, app };
}

test('a link serves its file once, with its type and name; the second fetch is 404', async () => {
  const { downloads, app } = setup();
  const link = downloads.issue({ body: Buffer.from('zip bytes'), contentType: 'application/zip', filename: 'a"b.zip' }, 60_000);
  expect(link).toMatch(/^\/_downloads\/[0-9a-f]{32}$/);
  const first = await app.inject({ method: 'GET', url: link });
  expect(first.statusCode).toBe(200);
  expect(first.body).toBe('zip bytes');
  expect(first.headers['content-type']).toBe('application/zip');
  expect(first.headers['content-disposition']).toBe('attachment; filename="a_b.zip"');
  expect((await app.inject({ method: 'GET', url: link })).statusCode).toBe(404);
});

test('a link expires on the service clock; a file made on demand is made when fetched', async () => {
  const { clock, downloads, app } = setup();
  let made = 0;
  const file = { body: async () => Buffer.from(`made ${++made}`), contentType: 'application/gzip' };
  const late = downloads.issue(file, 60_000);
  const onTime = downloads.issue(file, 60_000);
  expect(late).not.toBe(onTime);
  clock.advance(60);
  expect((await app.inject({ method: 'GET', url: onTime })).body).toBe('made 1');
  clock.advance(1);
  expect((await app.inject({ method: 'GET', url: late })).statusCode).toBe(404);
  expect(made).toBe(1);
});

test('a reset forgets every link and issues the same tokens again (recordings stay reproducible)', async () => {
  const { downloads, app } = setup();
  const file = { body: Buffer.from('x'), contentType: 'text/plain' };
  const before = downloads.issue(file, 60_000);
  downloads.reset();
  expect((await app.inject({ method: 'GET', url: before })).statusCode).toBe(404);
  expect(downloads.issue(file, 60_000)).toBe(before);
});
