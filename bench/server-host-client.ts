// The benchmark's handle on one server host child (server-host.ts): fork it under tsx,
// start its server, ask it for memory samples, close it. Every wait is bounded.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { HostCommand, HostReply, HostRequest, HostRole, MemoryReport, ProxyCloseReport, StartReport } from './server-host-protocol.js';

const HOST_ENTRY = fileURLToPath(new URL('./server-host.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface ServerHost {
  readonly url: string;
  readonly pid: number;
  /** Load time reported by a proxy host started with firstRequestPath. */
  readonly loadMs?: number;
  /** Reported by a reference or proxy host: compiled (dist/) or from the sources. */
  readonly compiled?: boolean;
  memStart(): Promise<{ before: number }>;
  memStop(): Promise<MemoryReport>;
  /** The child's CPU time so far (process.cpuUsage, µs). */
  cpuUsage(): Promise<NodeJS.CpuUsage>;
  /** Closes the server (a proxy compacts its recording) and ends the child. */
  close(): Promise<ProxyCloseReport | undefined>;
  /** Ends the child at once; for cleanup after a failure. */
  kill(): void;
}

/** What a reference or proxy host loaded, as it says (the bench's own look at dist/ could disagree). */
export function loadedFrom(host: ServerHost, what: string, command: string): string {
  return host.compiled
    ? `${what}: compiled (dist/), as ${command} runs it`
    : `${what}: from the TypeScript sources through tsx (dist/ is missing or stale: npm run build)`;
}

export interface HostOptions {
  /** Write a V8 CPU profile of this child into the folder (node --cpu-prof). */
  cpuProfileDir?: string;
  /** How long start may take (a 100,000-interaction cassette loads in it), ms. */
  startTimeoutMs?: number;
}

export async function startHost(role: HostRole, options: HostOptions = {}): Promise<ServerHost> {
  const execArgv = ['--import', 'tsx', '--expose-gc'];
  if (options.cpuProfileDir) execArgv.push('--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`);
  // NODE_OPTIONS is dropped: a test runner's loader hooks must not end up in the server.
  const { NODE_OPTIONS: _dropped, ...env } = process.env;
  const child = fork(HOST_ENTRY, [], { cwd: REPO_ROOT, execArgv, env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const call = createCaller(child);
  try {
    const started = (await call({ op: 'start', role }, options.startTimeoutMs ?? 60_000)) as StartReport;
    return {
      url: started.url,
      pid: child.pid!,
      loadMs: started.loadMs,
      compiled: started.compiled,
      memStart: () => call({ op: 'mem-start' }, 30_000) as Promise<{ before: number }>,
      memStop: () => call({ op: 'mem-stop' }, 30_000) as Promise<MemoryReport>,
      cpuUsage: () => call({ op: 'cpu' }, 30_000) as Promise<NodeJS.CpuUsage>,
      async close() {
        try {
          // A recording of a few hundred thousand interactions takes a while to compact.
          return (await call({ op: 'close' }, 180_000)) as ProxyCloseReport | undefined;
        } finally {
          await endChild(child);
        }
      },
      kill: () => void child.kill('SIGKILL'),
    };
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
}

type Call = (request: HostCommand, timeoutMs: number) => Promise<unknown>;

function createCaller(child: ChildProcess): Call {
  let nextId = 1;
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const failAll = (error: Error) => {
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  child.on('message', (message: HostReply) => {
    const entry = waiting.get(message.id);
    if (!entry) return;
    waiting.delete(message.id);
    if (message.ok) entry.resolve(message.result);
    else entry.reject(new Error(`server host ${child.pid}: ${message.error}`));
  });
  child.on('exit', (code, signal) => failAll(new Error(`server host ${child.pid} exited (${signal ?? code})`)));
  child.on('error', failAll);
  return (request, timeoutMs) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error(`server host ${child.pid}: ${request.op} took over ${timeoutMs} ms`));
      }, timeoutMs);
      waiting.set(id, {
        resolve: (value) => (clearTimeout(timer), resolve(value)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      const message: HostRequest = { ...request, id };
      child.send(message);
    });
}

/** Disconnecting makes the host exit by itself (flushing a CPU profile); SIGKILL after 30 s. */
function endChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    if (child.connected) child.disconnect();
    else child.kill('SIGTERM');
  });
}
