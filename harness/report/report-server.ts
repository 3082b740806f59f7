// Serves a report folder over HTTP on 127.0.0.1, as Playwright's `show-report` serves its
// report: `touchstone report show`, and `report open` where no browser can be started. The
// folder's files only (report.html or compare.html, results.json and the other reports, and
// what a run saved beside them: plugin-requests/, compiler-cases/), read as they are on disk.
//
// Decisions where the issue is silent:
// - Always 127.0.0.1, no --host: a report holds the exchanges of a run (tokens redacted, but
//   bodies as the target sent them); the page is for the person at this machine. For the same
//   reason a request whose Host is not this address (or localhost) is refused (403): a web page
//   elsewhere cannot read the report through a name of its own resolved to 127.0.0.1.
// - Only what lies inside the folder: a path is decoded one segment at a time, and a segment
//   that is `..` or `.`, holds a slash, a backslash or a NUL once decoded (`%2e%2e`, `..%2f`,
//   `%2Fetc%2Fpasswd`) is refused (403) before any file is looked at; a file reached through a
//   symbolic link that leads out of the folder is refused too (403). The folder itself may be a
//   link (reports/latest is one): its real path is the root.
// - No folder listings: `/` redirects to the page, any other folder is 404.
// - GET and HEAD only (405 with Allow otherwise); `Cache-Control: no-store`, since a run into
//   the same folder rewrites the files the browser has, and `nosniff`, so a file is only ever
//   shown as the type named here.
import { createReadStream, realpathSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { HarnessError } from '../core/errors.js';

/** Playwright's own default for `show-report`, so the habit carries over. */
export const DEFAULT_REPORT_PORT = 9323;

const HOST = '127.0.0.1';

/** The types of the files report folders hold; anything else is served as bytes. */
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.sh': 'text/plain; charset=utf-8',
  '.proto': 'text/plain; charset=utf-8',
  '.yaml': 'text/plain; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};
const BYTES = 'application/octet-stream';

export interface ReportServer {
  /** The page's address: http://127.0.0.1:PORT/report.html. */
  url: string;
  close(): Promise<void>;
}

/** Reads --port: a whole number from 0 (a free port) to 65535. */
export function parsePort(given: unknown): number {
  const port = typeof given === 'number' ? given : Number.NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new HarnessError('USAGE', `--port ${String(given)} is not a port (a whole number from 0 to 65535; 0 picks a free one)`);
  return port;
}

/** Where a request's path leads inside `root`, or the status that refuses it. */
function fileFor(root: string, pathname: string): { file: string } | { status: number } {
  const segments: string[] = [];
  for (const raw of pathname.slice(1).split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return { status: 400 };
    }
    if (segment === '..' || segment === '.' || /[/\\\0]/.test(segment)) return { status: 403 };
    segments.push(segment);
  }
  // An empty segment (`//`, a trailing slash) names a folder or nothing: no listings.
  if (segments.some((s) => s === '')) return { status: 404 };
  let real: string;
  try {
    real = realpathSync(path.join(root, ...segments));
  } catch {
    return { status: 404 };
  }
  const inside = path.relative(root, real);
  if (inside === '..' || inside.startsWith(`..${path.sep}`) || path.isAbsolute(inside)) return { status: 403 };
  return { file: real };
}

/** Whether a Host header names this server (127.0.0.1 or localhost, at its port). */
function ownHost(host: string | undefined, port: number): boolean {
  return host === `${HOST}:${port}` || host === `localhost:${port}`;
}

/**
 * Serves the folder of `page` (a report.html or compare.html) on 127.0.0.1 at `port` (0: a free
 * one). A port already taken is a usage error that says so.
 */
export async function serveReport(page: string, port: number): Promise<ReportServer> {
  const root = realpathSync(path.dirname(page));
  const pageName = encodeURIComponent(path.basename(page));
  let listening = port;
  const server = http.createServer((req, res) => {
    const send = (status: number, headers: http.OutgoingHttpHeaders = {}) => {
      res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers });
      res.end(req.method === 'HEAD' ? undefined : `${status} ${http.STATUS_CODES[status]}\n`);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, { Allow: 'GET, HEAD' });
    if (!ownHost(req.headers.host, listening)) return send(403);
    const target = req.url ?? '';
    // Origin-form only (`/path`): an absolute URL or `*` names no file of the folder.
    if (!target.startsWith('/')) return send(400);
    const pathname = target.replace(/[?#].*$/s, '');
    if (pathname === '/') return send(302, { Location: `/${pageName}` });
    const found = fileFor(root, pathname);
    if ('status' in found) return send(found.status);
    const stat = statSync(found.file, { throwIfNoEntry: false });
    if (!stat?.isFile()) return send(404);
    res.writeHead(200, {
      'Content-Type': CONTENT_TYPES[path.extname(found.file).toLowerCase()] ?? BYTES,
      'Content-Length': stat.size,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
    if (req.method === 'HEAD') return res.end();
    createReadStream(found.file)
      .on('error', (error) => res.destroy(error))
      .pipe(res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new HarnessError(
          'USAGE',
          error.code === 'EADDRINUSE'
            ? `port ${port} is busy (something else listens on ${HOST}:${port}): name another with --port N, or --port 0 for a free one`
            : `cannot listen on ${HOST}:${port}: ${error.code ?? error.message}`,
        ),
      ),
    );
    server.listen(port, HOST, () => resolve());
  });
  listening = (server.address() as { port: number }).port;
  return {
    url: `http://${HOST}:${listening}/${pageName}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
