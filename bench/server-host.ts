// Child-process entry: hosts exactly one server under test (the bare item server, a bare
// http-proxy passthrough, or a touchstone proxy) and answers the benchmark over IPC. Each
// server gets its own process so the load generator, the upstream and the server under
// test never share an event loop; see proxy-bench.ts for why.
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import httpProxy from 'http-proxy';
// @ts-expect-error bin/entry.js is plain JavaScript (it runs before tsx is registered)
import { isCurrent } from '../bin/entry.js';
import { PROJECT_ROOT } from '../lib/project-files.js';
import { tuneForServing } from '../lib/serving-runtime.js';
import { createItemServer } from './item-fixture.js';
import type { HostReply, HostRequest, HostRole, MemoryReport, StartReport } from './server-host-protocol.js';

interface Hosted {
  url: string;
  close(): Promise<unknown>;
}

let hosted: Hosted | undefined;
let memory: { before: number; peak: number; samples: number; timer: NodeJS.Timeout } | undefined;

const reply = (message: HostReply): void => void process.send?.(message);

process.on('message', (message: HostRequest) => {
  handle(message).then(
    (result) => reply({ id: message.id, ok: true, result }),
    (error: Error) => reply({ id: message.id, ok: false, error: error.stack ?? error.message }),
  );
});
// The parent is gone (or done with us): leave, so no server outlives the benchmark.
process.on('disconnect', () => process.exit(0));

async function handle(message: HostRequest): Promise<unknown> {
  switch (message.op) {
    case 'start':
      return start(message.role);
    case 'mem-start':
      return memStart();
    case 'mem-stop':
      return memStop();
    case 'cpu':
      return process.cpuUsage();
    case 'close': {
      const result = await hosted?.close();
      hosted = undefined;
      return result;
    }
  }
}

async function start(role: HostRole): Promise<StartReport> {
  if (hosted) throw new Error('this host already runs a server');
  // The V8 setting touchstone's servers run with, for every role: baselines and servers under
  // test differ in their code only.
  tuneForServing();
  if (role.kind === 'bare') {
    const server = createItemServer();
    hosted = { url: await listen(server), close: () => closeServer(server) };
    return { url: hosted.url };
  }
  if (role.kind === 'http-proxy') {
    const agent = new http.Agent({ keepAlive: true });
    const proxy = httpProxy.createProxyServer({ target: role.target, agent, xfwd: false });
    const server = http.createServer((req, res) => {
      // An upstream failure is a bad answer (502), which the runner counts against the figure.
      proxy.web(req, res, {}, () => {
        if (!res.headersSent) res.writeHead(502, { 'content-length': 0 });
        res.end();
      });
    });
    hosted = {
      url: await listen(server),
      close: async () => {
        await closeServer(server);
        proxy.close();
        agent.destroy();
      },
    };
    return { url: hosted.url };
  }
  if (role.kind === 'canned') {
    const body = Buffer.from(role.bodyBase64, 'base64');
    const headers = role.headers.flat();
    const server = http.createServer((req, res) => {
      req.resume();
      res.sendDate = false;
      res.writeHead(role.status, headers).end(body);
    });
    hosted = { url: await listen(server), close: () => closeServer(server) };
    return { url: hosted.url };
  }
  if (role.kind === 'json') {
    const headers = role.headers.filter(([name]) => name !== 'content-length').flat();
    const server = http.createServer((req, res) => {
      req.resume();
      res.sendDate = false;
      const body = JSON.stringify(role.value);
      res.writeHead(role.status, [...headers, 'content-length', String(Buffer.byteLength(body))]).end(body);
    });
    hosted = { url: await listen(server), close: () => closeServer(server) };
    return { url: hosted.url };
  }
  if (role.kind === 'reference') {
    const { module, compiled } = await commandModule('service', () => import('../reference-impl/service/service.js'));
    const world = module.loadWorld();
    const service = module.createReferenceService({ world });
    hosted = { url: await service.listen({ port: 0 }), close: () => service.close() };
    // As `touchstone run` starts its embedded reference for a run reading Git data.
    if (role.warmGit) await module.warmWorldGit(world);
    return { url: hosted.url, compiled };
  }
  if (role.kind === 'talkback') {
    hosted = await startTalkback(role);
    return { url: hosted.url };
  }
  // Imported only here, so the bare hosts never load (or pay for) the harness.
  const { module, compiled } = await commandModule('proxy-server', () => import('../harness/proxy/proxy-server.js'));
  const { createProxy } = module;
  const started = performance.now();
  const proxy = await createProxy(role.options);
  let loadMs: number | undefined;
  if (role.firstRequestPath !== undefined) {
    // Sessions load their cassette at the first request, so that request is part of the load.
    const status = await get(`${proxy.url}${role.firstRequestPath}`);
    loadMs = performance.now() - started;
    if (status !== 200) throw new Error(`first request ${role.firstRequestPath} answered ${status}`);
  }
  hosted = {
    url: proxy.url,
    close: async () => {
      const { summary, written } = await proxy.close();
      return { summary, written: written.map((c) => ({ name: c.name, interactions: c.interactions.length })) };
    },
  };
  return { url: proxy.url, loadMs, compiled };
}

/**
 * talkback as its users run it, but on a server of ours bound to 127.0.0.1 (its own start()
 * listens on every interface): its tape is recorded from the same upstream first, then served
 * with recording off. Header matching is off (allowHeaders: []), as it is off in touchstone's
 * default match, so both answer the load generator's bare requests.
 */
async function startTalkback(role: Extract<HostRole, { kind: 'talkback' }>): Promise<Hosted> {
  // CommonJS whose typings say `export default`: the default import is the function itself.
  const talkback = (await import('talkback')).default as unknown as typeof import('talkback')['default'];
  const serve = async (record: string): Promise<{ url: string; server: http.Server }> => {
    const instance = talkback({ host: role.target, path: role.tapeDir, record, allowHeaders: [], silent: true, summary: false });
    await instance.tapeStore.load();
    const server = http.createServer((req, res) => instance.handleRequest(req, res));
    return { url: await listen(server), server };
  };
  const recorder = await serve(talkback.Options.RecordMode.NEW);
  const agent = new http.Agent({ keepAlive: true });
  const status = await get(`${recorder.url}${role.recordPath}`, agent).finally(() => agent.destroy());
  await closeServer(recorder.server);
  if (status !== 200) throw new Error(`talkback recording ${role.recordPath} answered ${status}`);
  const replayer = await serve(talkback.Options.RecordMode.DISABLED);
  return { url: replayer.url, close: () => closeServer(replayer.server) };
}

function listen(server: http.Server): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}

function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** One GET; `agent` keep-alive makes the answer say keep-alive too (talkback replays that header as recorded). */
function get(url: string, agent: http.Agent | false = false): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      })
      .on('error', reject);
  });
}

const gc = (globalThis as { gc?: () => void }).gc;

/** Starts sampling RSS every 50 ms; `before` is taken after a full GC when --expose-gc is on. */
function memStart(): { before: number } {
  if (memory) clearInterval(memory.timer);
  gc?.();
  resetPeakRss();
  const before = process.memoryUsage.rss();
  const state = { before, peak: before, samples: 1, timer: undefined as unknown as NodeJS.Timeout };
  state.timer = setInterval(() => {
    state.peak = Math.max(state.peak, process.memoryUsage.rss());
    state.samples++;
  }, 50);
  memory = state;
  return { before };
}

function memStop(): MemoryReport {
  if (!memory) throw new Error('mem-stop without mem-start');
  clearInterval(memory.timer);
  const { before, samples } = memory;
  const peak = Math.max(memory.peak, process.memoryUsage.rss());
  memory = undefined;
  return { before, peak, samples: samples + 1, kernelPeak: kernelPeakRss() };
}

// Linux keeps the exact high-water mark (VmHWM), which no 50 ms sampler can miss; writing
// 5 to clear_refs resets it. Elsewhere both are simply unavailable.
function resetPeakRss(): void {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    // not Linux, or not permitted: kernelPeak stays undefined or covers the process's life
  }
}

function kernelPeakRss(): number | undefined {
  try {
    const kib = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    return kib === undefined ? undefined : Number(kib) * 1024;
  } catch {
    return undefined;
  }
}

/**
 * A module as the commands run it (`touchstone serve`, `touchstone proxy`): compiled
 * (dist/commands/<name>.js, bin/build.ts) while the build is current, else from the sources
 * through tsx (which names every closure it creates, a measurable cost per request).
 */
async function commandModule<T>(name: string, fromSources: () => Promise<T>): Promise<{ module: T; compiled: boolean }> {
  if (!isCurrent(PROJECT_ROOT, 'commands')) return { module: await fromSources(), compiled: false };
  const file = pathToFileURL(path.join(PROJECT_ROOT, 'dist', 'commands', `${name}.js`)).href;
  return { module: (await import(file)) as T, compiled: true };
}
