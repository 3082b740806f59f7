// The IPC messages between the benchmark and a server host (server-host.ts).
import type { ProxyOptions, ProxySummary } from '../harness/proxy/proxy-options.js';

export type HostRole =
  | { kind: 'bare' }
  | { kind: 'http-proxy'; target: string }
  /** The reference service with the default world; warmGit: its Git data built before start answers. */
  | { kind: 'reference'; warmGit?: boolean }
  /** A bare node:http server sending these bytes to every request: a baseline with the same answer. */
  | { kind: 'canned'; status: number; headers: [string, string][]; bodyBase64: string }
  /**
   * A bare node:http server that serializes this JSON value on every request and sends it with
   * these headers (and its Content-Length): the least any server answering with JSON does.
   */
  | { kind: 'json'; status: number; headers: [string, string][]; value: unknown }
  /** talkback (the anchor): records `recordPath` from `target` once, then replays its tape with recording off. */
  | { kind: 'talkback'; target: string; tapeDir: string; recordPath: string }
  /** firstRequestPath: fetched right after createProxy; the time to its answer is the load time. */
  | { kind: 'proxy'; options: ProxyOptions; firstRequestPath?: string };

export type HostCommand = { op: 'start'; role: HostRole } | { op: 'mem-start' } | { op: 'mem-stop' } | { op: 'cpu' } | { op: 'close' };
export type HostRequest = { id: number } & HostCommand;

export type HostReply = { id: number } & ({ ok: true; result: unknown } | { ok: false; error: string });

export interface StartReport {
  url: string;
  /** createProxy + first answer, ms (proxy roles with firstRequestPath). */
  loadMs?: number;
  /** Reference and proxy roles: whether they run compiled (dist/) rather than from the sources. */
  compiled?: boolean;
}

/** Bytes. */
export interface MemoryReport {
  before: number;
  /** Highest 50 ms sample. */
  peak: number;
  samples: number;
  /** The kernel's exact high-water mark since mem-start (Linux), for comparison. */
  kernelPeak?: number;
}

export interface ProxyCloseReport {
  summary: ProxySummary;
  written: { name: string; interactions: number }[];
}
