// Shared HTTP plumbing: errors, JSON bodies, conditional GETs, pagination, request conventions.
import { createHash } from 'node:crypto';

export const API_VERSION = '2022-11-28';
export const MAX_BODY_BYTES = 1024 * 1024;
const DOCS = 'https://docs.service.invalid/rest';

export class HttpError extends Error {
  constructor(status, message, extra = {}) {
    super(message);
    this.status = status;
    this.extra = extra;
  }
}

/** 422 with the usual list of field errors. */
export function validationError(field, code = 'invalid', message) {
  return new HttpError(422, 'Validation Failed', {
    errors: [{ resource: 'Request', field, code, ...(message ? { message } : {}) }],
  });
}

export function baseUrl(req) {
  return `http://${req.headers.host || `${req.socket.localAddress}:${req.socket.localPort}`}`;
}

function etagOf(text) {
  return `"${createHash('sha1').update(text).digest('hex')}"`;
}

function etagMatches(header, etag) {
  if (!header) return false;
  const bare = (t) => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => t.trim() === '*' || bare(t) === bare(etag));
}

/** Sends a JSON answer; a GET answer carries an ETag and becomes 304 when If-None-Match matches. */
export function sendJson(req, res, status, body, headers = {}) {
  const text = body === undefined ? '' : JSON.stringify(body);
  const out = { 'X-Service-Api-Version': API_VERSION, ...headers };
  if (body !== undefined) out['Content-Type'] = 'application/json; charset=utf-8';
  if ((req.method === 'GET' || req.method === 'HEAD') && status === 200) {
    out.ETag = etagOf(text);
    if (etagMatches(req.headers['if-none-match'], out.ETag)) {
      delete out['Content-Type'];
      res.writeHead(304, out);
      res.end();
      return;
    }
  }
  out['Content-Length'] = Buffer.byteLength(text);
  res.writeHead(status, out);
  res.end(text);
}

export function sendEmpty(req, res, status = 204) {
  sendJson(req, res, status, undefined);
}

export function sendError(req, res, err) {
  if (res.headersSent) return res.destroy();
  const known = err instanceof HttpError;
  const { headers = {}, ...extra } = known ? err.extra : {};
  const message = known ? err.message : 'Internal Server Error';
  sendJson(req, res, known ? err.status : 500, { message, ...extra, documentation_url: DOCS }, headers);
}

/** The raw body, at most MAX_BODY_BYTES (413 beyond; the rest is drained, not kept). */
function readBody(req) {
  return new Promise((resolve, reject) => {
    if (Number(req.headers['content-length']) > MAX_BODY_BYTES) return reject(tooLarge(req));
    const chunks = [];
    let size = 0;
    const onData = (chunk) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) return chunks.push(chunk);
      req.off('data', onData);
      reject(tooLarge(req));
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Reads the body and parses it as a JSON object; an empty body is {}. */
export async function readJsonObject(req) {
  const text = await readBody(req);
  if (text.trim() === '') return {};
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'Problems parsing JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new HttpError(422, 'Validation Failed', {
      errors: [{ resource: 'Request', field: '', code: 'invalid', message: 'the body must be a JSON object' }],
    });
  }
  return value;
}

function tooLarge(req) {
  req.resume();
  return new HttpError(413, 'Request body too large', { headers: { Connection: 'close' } });
}

function positiveInt(query, name, fallback) {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw validationError(name, 'invalid', `${name} must be a positive integer`);
  return Number(raw);
}

/** page and per_page of the query: per_page above max is lowered to max. */
export function pageParams(url, max, fallback = 30) {
  const page = positiveInt(url.searchParams, 'page', 1);
  const perPage = Math.min(positiveInt(url.searchParams, 'per_page', fallback), max);
  return { page, perPage };
}

/** One page of items, and the link header for the page (undefined when all fits on one page). */
export function paginate(req, url, items, { page, perPage }) {
  const slice = items.slice((page - 1) * perPage, page * perPage);
  const last = Math.max(1, Math.ceil(items.length / perPage));
  if (last === 1 && page === 1) return { slice, headers: {} };
  const link = (n) => {
    const u = new URL(url.pathname + url.search, baseUrl(req));
    u.searchParams.set('per_page', String(perPage));
    u.searchParams.set('page', String(n));
    return `<${u.href}>`;
  };
  const rels = [];
  if (page > 1) rels.push(`${link(Math.min(page - 1, last))}; rel="prev"`);
  if (page < last) rels.push(`${link(page + 1)}; rel="next"`);
  rels.push(`${link(last)}; rel="last"`, `${link(1)}; rel="first"`);
  return { slice, headers: { Link: rels.join(', ') } };
}

/** The rules every request obeys: a User-Agent, and a known API version when one is named. */
export function checkConventions(req) {
  const ua = req.headers['user-agent'];
  if (ua === undefined) throw new HttpError(403, 'Request forbidden: a User-Agent header is required');
  if (!/^[\x21-\x7e][\x20-\x7e]*$/.test(ua)) throw new HttpError(403, 'Request forbidden: invalid User-Agent header');
  const version = req.headers['x-service-api-version'];
  if (version !== undefined && version.trim() !== API_VERSION) {
    throw new HttpError(400, `Unsupported API version ${version}`);
  }
}

/** The credentials of the Authorization header: null when absent; 401 when unusable. */
export function credentials(req) {
  const header = req.headers.authorization;
  if (header === undefined) return null;
  const m = /^(bearer|token)\s+(\S+)\s*$/i.exec(header);
  if (!m) throw new HttpError(401, 'Bad credentials');
  return { scheme: m[1].toLowerCase(), token: m[2] };
}
