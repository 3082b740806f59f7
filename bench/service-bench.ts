// `npm run bench:service`: the reference service's GET throughput against a bare node:http
// server answering the very same JSON (status, headers, bytes), both measured in this run on
// this machine, with the same load generator (wrk when installed, see load-runner.ts) and the
// same noise policy (alternating best-of rounds). Each server runs in its own child process.
//
// What is measured: an anonymous GET of a public repository's assignees (routing, the request
// conventions, visibility, pagination, the representation, the ETag) and an authenticated GET
// of an organization's variables (token lookup and the access rule as well). Target: each at
// least half the bare server's requests per second.
//
// Decision: the bare server serializes the answer's JSON value on every request
// (JSON.stringify, then write), as the plainest Node server answering with JSON does; that is
// the baseline the target is measured against. A server replaying canned bytes, which does no
// work at all per request, is measured too and shown for information ("canned"): it is the
// floor of what node:http costs, not a server of the same resource.
//
// Environment: BENCH_DURATION (3), BENCH_ROUNDS (5), BENCH_CONNECTIONS (10),
// BENCH_LOAD_GENERATOR (wrk or autocannon), BENCH_NO_FAIL=1, BENCH_TIMEOUT_S (600), BENCH_NO_BUILD=1
// (measure dist/ as it is, even when stale: ensure-build.ts).
import os from 'node:os';
import { loadWorld } from '../reference-impl/service/service.js';
import { ensureBuilt } from './ensure-build.js';
import { chooseGenerator, compareTargets, loadSettingsFromEnv, type LoadTarget } from './load-runner.js';
import { giveUpAfter, reportAndExit, throughputRow, type ResultRow } from './result-table.js';
import { loadedFrom, startHost, type ServerHost } from './server-host-client.js';

const TARGET = 0.5;
const env = process.env;
const settings = loadSettingsFromEnv(env);
const noFail = env.BENCH_NO_FAIL === '1';
const log = (line: string) => console.log(line);

giveUpAfter(env, 600);
ensureBuilt(env, log);

const { warning } = chooseGenerator(env);
log(
  `touchstone service bench — ${os.cpus().length} cores, node ${process.version}; ${settings.generator}, ${settings.rounds} × ${settings.durationS} s per side, ${settings.connections} connections`,
);
if (warning) console.warn(`warning: ${warning}`);

const CLIENT = { 'User-Agent': 'touchstone-bench', Accept: 'application/vnd.service+json', 'X-Service-Api-Version': '2022-11-28' };
const owner = loadWorld().tokens.find((t) => t.role === 'org-owner')!.value;

const rows: ResultRow[] = [];
const errors: string[] = [];
const hosts: ServerHost[] = [];
try {
  const reference = await startHost({ kind: 'reference' });
  log(loadedFrom(reference, 'reference', 'touchstone serve'));
  hosts.push(reference);
  const endpoints = [
    { label: 'GET assignees', path: '/repos/octo-org/widgets/assignees', headers: CLIENT },
    { label: 'GET variables (token)', path: '/orgs/octo-org/actions/variables', headers: { ...CLIENT, Authorization: `Bearer ${owner}` } },
  ];
  const targets: LoadTarget[] = [];
  for (const endpoint of endpoints) {
    // The baseline sends the reference's own answer (status, headers, bytes): the same work on the wire.
    const answer = await fetch(`${reference.url}${endpoint.path}`, { headers: endpoint.headers });
    if (answer.status !== 200) throw new Error(`${endpoint.path} answered ${answer.status}`);
    const body = Buffer.from(await answer.arrayBuffer());
    const headers = [...answer.headers].filter(([name]) => !['connection', 'keep-alive', 'date', 'transfer-encoding'].includes(name));
    const value = JSON.parse(body.toString()) as unknown;
    if (JSON.stringify(value) !== body.toString()) throw new Error(`${endpoint.path}: the answer is not JSON.stringify output`);
    const bare = await startHost({ kind: 'json', status: 200, headers, value });
    const canned = await startHost({ kind: 'canned', status: 200, headers, bodyBase64: body.toString('base64') });
    hosts.push(bare, canned);
    log(`${endpoint.label}: ${body.length} bytes`);
    targets.push(
      { label: `bare ${endpoint.label}`, url: bare.url, spread: 1, path: endpoint.path, cpuUsage: bare.cpuUsage },
      { label: `canned ${endpoint.label}`, url: canned.url, spread: 1, path: endpoint.path, cpuUsage: canned.cpuUsage },
      {
        label: endpoint.label,
        url: reference.url,
        spread: 1,
        path: endpoint.path,
        headers: endpoint.headers,
        cpuUsage: reference.cpuUsage,
      },
    );
  }
  const results = await compareTargets(targets, settings, log);
  for (const { label } of endpoints) {
    rows.push(throughputRow(`reference ${label} / bare http`, results.get(label)!, results.get(`bare ${label}`)!, TARGET));
    rows.push({
      ...throughputRow(`reference ${label} / canned bytes`, results.get(label)!, results.get(`canned ${label}`)!, 0),
      target: '-',
      info: true,
    });
  }
} catch (error) {
  errors.push(`setup: ${(error as Error).stack ?? error}`);
} finally {
  await Promise.all(hosts.map((h) => h.close().catch(() => undefined)));
}

reportAndExit(rows, errors, { valueHeader: 'req/s', noFail });
