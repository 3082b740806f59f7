// Download links: what a `download_url`, an archive redirect or an artifact redirect points
// at (spec 1: "Download URLs are single-use and expire"). A link is a capability: whoever
// holds it may fetch the file once, without credentials, before it expires on the service's
// clock. Links live under /_downloads/, outside the API: no User-Agent, version or Accept
// rules apply, as a browser or curl fetches them.
//
// Decisions where the spec is silent:
// - A used, expired or unknown link answers 404 with the usual error body.
// - Tokens are derived from a counter that a reset sets back (an HMAC of the counter and
//   the issue time under a fixed key), not drawn at random: recordings of the reference
//   must be the same run to run. Unguessable links are not a goal of a local test server.
import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Clock } from './clock.js';
import type { Faults } from './faults.js';
import { notFound } from './errors.js';

export const DOWNLOAD_PREFIX = '/_downloads/';

export interface DownloadFile {
  /** The bytes, or how to make them (an archive is built only when fetched). */
  body: Buffer | (() => Promise<Buffer>);
  contentType: string;
  /** Offered to the client as the file's name (Content-Disposition). */
  filename?: string;
}

export interface Downloads {
  /**
   * The path of a new link to `file`, valid once within `ttlMs` of the service clock, or as
   * often as it is fetched within them when `reusable` (where the spec says only that a link
   * expires, a variation may let it serve again).
   */
  issue(file: DownloadFile, ttlMs: number, options?: { reusable?: boolean }): string;
  /** The link's file, spending the link; undefined when it is unknown, used or expired. */
  take(token: string): DownloadFile | undefined;
  reset(): void;
}

export function createDownloads(clock: Clock, faults: Faults): Downloads {
  let links = new Map<string, { file: DownloadFile; expiresAt: number; reusable: boolean }>();
  let issued = 0;
  return {
    issue(file, ttlMs, options = {}) {
      const now = clock.now();
      const token = createHmac('sha256', 'touchstone downloads').update(`${++issued}:${now}`).digest('hex').slice(0, 32);
      links.set(token, { file, expiresAt: now + ttlMs, reusable: options.reusable === true });
      return `${DOWNLOAD_PREFIX}${token}`;
    },
    take(token) {
      const link = links.get(token);
      if (!link?.reusable && !faults.on('downloads.reusable')) links.delete(token);
      return link && (clock.now() <= link.expiresAt || faults.on('downloads.never-expire')) ? link.file : undefined;
    },
    reset() {
      links = new Map();
      issued = 0;
    },
  };
}

export function registerDownloadRoute(app: FastifyInstance, downloads: Downloads): void {
  app.get<{ Params: { token: string } }>(`${DOWNLOAD_PREFIX}:token`, async (request, reply) => {
    const file = downloads.take(request.params.token);
    if (!file) throw notFound();
    const body = typeof file.body === 'function' ? await file.body() : file.body;
    reply.header('content-type', file.contentType);
    if (file.filename) reply.header('content-disposition', `attachment; filename="${file.filename.replace(/["\\\r\n]/g, '_')}"`);
    return reply.send(body);
  });
}
