#!/usr/bin/env node
// Entry point: node server.js --world DIR [--port N]   (or WORLD_DIR=DIR PORT=N node server.js)
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { authenticate } from './auth.js';
import { routes as controlRoutes } from './control.js';
import { HttpError, baseUrl, checkConventions, sendError } from './http-util.js';
import { routes as socialRoutes } from './social-accounts.js';
import { routes as variableRoutes } from './variables.js';
import { loadWorld } from './world.js';

function compile(table) {
  return table.map(([method, path, handler]) => {
    const names = [];
    const source = path.replace(/:(\w+)/g, (_, name) => {
      names.push(name);
      return '([^/]+)';
    });
    return { method, re: new RegExp(`^${source}$`), names, handler };
  });
}

const control = compile(controlRoutes);
const service = compile([...socialRoutes, ...variableRoutes]);

/** The handler for the request's path and method: 404 for an unknown path, 405 for a known path. */
function match(table, method, pathname) {
  const found = table.filter((r) => r.re.test(pathname));
  if (found.length === 0) throw new HttpError(404, 'Not Found');
  const wanted = method === 'HEAD' ? 'GET' : method;
  const route = found.find((r) => r.method === wanted);
  if (!route) {
    const allow = [...new Set(found.map((r) => r.method))].join(', ');
    throw new HttpError(405, `Method ${method} not allowed here`, { headers: { Allow: allow } });
  }
  const values = route.re.exec(pathname).slice(1);
  let params;
  try {
    params = Object.fromEntries(route.names.map((n, i) => [n, decodeURIComponent(values[i])]));
  } catch {
    throw new HttpError(404, 'Not Found');
  }
  return { handler: route.handler, params };
}

function handle(store) {
  return async (req, res) => {
    try {
      req.baseUrl = baseUrl(req);
      const url = new URL(req.url, req.baseUrl);
      const ctx = { req, res, url, store, state: store.state, now: () => store.now() };
      if (url.pathname.startsWith('/_conformance/')) {
        Object.assign(ctx, match(control, req.method, url.pathname));
      } else {
        checkConventions(req);
        ctx.auth = authenticate(req, store.state);
        Object.assign(ctx, match(service, req.method, url.pathname));
      }
      await ctx.handler(ctx);
    } catch (err) {
      if (!(err instanceof HttpError)) console.error(err);
      req.resume();
      sendError(req, res, err);
    }
  };
}

function options() {
  const { values } = parseArgs({
    options: { world: { type: 'string' }, port: { type: 'string' }, help: { type: 'boolean' } },
    allowPositionals: false,
  });
  if (values.help) {
    console.log('usage: node server.js --world DIR [--port N]   (env: WORLD_DIR, PORT; default port 8080, 0 = any free port)');
    process.exit(0);
  }
  const world = values.world ?? process.env.WORLD_DIR;
  const port = Number(values.port ?? process.env.PORT ?? 8080);
  if (!world) fail('no world: give --world DIR (or WORLD_DIR), a folder written by `touchstone world export --out DIR`');
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`bad port: ${values.port ?? process.env.PORT}`);
  return { world, port };
}

function fail(message) {
  console.error(`example-target: ${message}`);
  process.exit(2);
}

const { world, port } = options();
let store;
try {
  store = loadWorld(world);
} catch (err) {
  fail(`cannot load the world from ${world}: ${err.message}`);
}

const server = createServer({ requestTimeout: 60_000, headersTimeout: 10_000 }, handle(store));
server.keepAliveTimeout = 5_000;
server.on('clientError', (_err, socket) => {
  if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
});
server.listen(port, '127.0.0.1', () => {
  console.log(`example-target: listening on http://127.0.0.1:${server.address().port}`);
});

function stop(signal) {
  console.log(`example-target: ${signal}, stopping`);
  server.close(() => process.exit(0));
  server.closeAllConnections();
  setTimeout(() => process.exit(0), 2_000).unref();
}
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
