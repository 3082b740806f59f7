// docs/ci.md run as written: touchstone's package (`npm pack` of this checkout) installed into
// a scratch project by the doc's own command, and each workflow's jobs run step by step in a
// fresh copy of that project's committed files, as GitHub would check them out. So the
// workflows a team copies cannot drift from the commands, the package or its annotations.
//
// The rule for the steps (said in the doc too): every `run:` step runs as GitHub's `bash -e`
// runs it, in order, in the project, with the job's `env`, $GITHUB_WORKSPACE and
// $GITHUB_STEP_SUMMARY set; a process it leaves running lasts until the job ends. `uses:` steps
// (checkout, setup-node, upload-artifact) are skipped, and so are `sudo apt-get` lines: they set
// up the machine, not the project (what they install, protoc, must be here already: without it
// the plugin's workflow is skipped unless TOUCHSTONE_REQUIRE_PROTOC=1). Anything else a step
// or a job holds that this rule does not model (a step's `env` or `if`, an expression other than
// `${{ secrets.NAME }}`) fails the test, so that the doc cannot outgrow it unseen.
//
// What the test stands in for, the user's own things, explicitly and nothing else:
// - `your-server --world world --port 8080`, and the implementation at https://api.example.test
//   the recordings are made of: the reference, `npx touchstone serve`, which serves the same
//   world the doc's `world export` writes;
// - the repository's secrets: each `${NAME}` of the tokens file the doc's command writes gets
//   the world's token of its role, which the reference accepts. A job whose `env` names secrets
//   gets all of them (the doc writes three, and "one line for each" for the rest);
// - `make protoc-gen-foo`: a two-line script that runs the package's reference plugin,
//   `protoc-gen-touchstone`, and `paths=source_relative` (a Go plugin's option) that plugin's own
//   `format=md`;
// - the client's tests (`npm test`), and the plugin's schema file: small files written below;
// - port 8080: a free one.
// npm runs with npm_config_prefer_offline=true: the packages come from npm's cache (the
// checkout's own `npm ci` filled it), the registry is asked only for what it lacks. `npm ci` runs
// as written in the first job that has it; later jobs get its node_modules as a hard-linked copy
// instead, what the same package-lock.json installs (it costs ~25 s a time on two cores).
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { parse } from 'yaml';
import { skipWithoutDebianProtoc } from '../../test-support/debian-protoc.js';
import { freePort } from '../../test-support/free-port.js';
import { packPackage } from '../../test-support/packed-package.js';
import { endGroup, runScript } from '../../test-support/shell-script.js';
import type { Results } from '../core/results.js';
import { PROJECT_ROOT } from '../core/suite-paths.js';
import { readWorldTokens } from '../suite/world-tokens.js';

const DOC = readFileSync(path.join(PROJECT_ROOT, 'docs', 'ci.md'), 'utf8');
const VERSION = (JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const STEP_BOUND = 300_000;

/** The doc's blocks fenced as `lang`. */
function fenced(lang: string): string[] {
  return [...DOC.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map(([, block]) => block);
}

/** The one `sh` block of the doc that starts with `first`. */
function shBlock(first: string): string {
  const blocks = fenced('sh').filter((block) => block.startsWith(first));
  expect(blocks, `one sh block of docs/ci.md starts with ${first}`).toHaveLength(1);
  return blocks[0].trim();
}

interface StepSpec {
  name?: string;
  run?: string;
  uses?: string;
  with?: unknown;
  if?: string;
}

interface JobSpec {
  env?: Record<string, string>;
  steps: StepSpec[];
}

/** The jobs of the workflow the doc writes to `.github/workflows/<file>`. */
function workflowJobs(file: string): Record<string, JobSpec> {
  const blocks = fenced('yaml').filter((block) => block.startsWith(`# .github/workflows/${file}\n`));
  expect(blocks, `one workflow .github/workflows/${file} in docs/ci.md`).toHaveLength(1);
  return (parse(blocks[0]) as { jobs: Record<string, JobSpec> }).jobs;
}

interface Step {
  name: string;
  run: string;
}

/** A job's steps that run here, by the rule above, and its env with the secrets given. */
function runnable(job: JobSpec, secrets: Record<string, string>): { steps: Step[]; env: Record<string, string>; skipped: string[] } {
  const skipped: string[] = [];
  const steps: Step[] = [];
  for (const step of job.steps) {
    const keys = Object.keys(step);
    if (step.uses !== undefined) {
      expect(
        keys.every((key) => ['name', 'uses', 'with', 'if'].includes(key)),
        `keys of ${step.uses}`,
      ).toBe(true);
      skipped.push(step.uses);
      continue;
    }
    expect(
      keys.every((key) => ['name', 'run'].includes(key)),
      `a run: step has only name and run, not ${keys}`,
    ).toBe(true);
    expect(step.run, 'a step without run: or uses:').toBeDefined();
    expect(step.run).not.toContain('${{');
    const lines = step.run!.split('\n').filter((line) => {
      const machine = line.trimStart().startsWith('sudo apt-get');
      if (machine) skipped.push(line.trim());
      return !machine;
    });
    if (lines.join('').trim()) steps.push({ name: step.name ?? lines[0], run: lines.join('\n') });
  }
  const env = Object.fromEntries(
    Object.entries(job.env ?? {}).map(([name, value]) => {
      const secret = /^\$\{\{ secrets\.([A-Za-z_][A-Za-z0-9_]*) \}\}$/.exec(value);
      if (!secret) expect(value, `env ${name}`).not.toContain('${{');
      if (secret) expect(Object.keys(secrets), `secrets.${secret[1]} is a variable of tokens.yaml`).toContain(secret[1]);
      return [name, secret ? secrets[secret[1]] : value];
    }),
  );
  const namesSecrets = Object.values(job.env ?? {}).some((value) => value.startsWith('${{ secrets.'));
  return { steps, env: namesSecrets ? { ...secrets, ...env } : env, skipped };
}

/** The environment every command gets here: npm from its cache, no colours. */
function baseEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NO_COLOR: '1',
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    ...extra,
  };
  delete env.FORCE_COLOR;
  return env;
}

/** Each [placeholder, stand-in] replaced everywhere in `text`. */
function substitute(text: string, substitutions: [string, string][]): string {
  return substitutions.reduce((done, [from, to]) => done.replaceAll(from, to), text);
}

let scratch: string;
/** The user's project where the doc's install command ran: a developer's clone of their repository. */
let project: string;
/** Each `${NAME}` of the project's tokens file, with the world's token of its role. */
let secrets: Record<string, string>;
/** The project of the first job whose `npm ci` ran, whose node_modules later jobs copy. */
let installed: string | undefined;

/** The files the user commits (above), the client's tests, and the schema file of the plugin. */
const COMMITTED = ['package.json', 'package-lock.json', 'vendor', 'tokens.yaml', 'client.test.mjs', 'protos'];

/** A fresh checkout of the user's repository, with `extra` files (recordings) copied in. */
function checkout(name: string, extra: string[] = []): string {
  const dir = path.join(scratch, name);
  for (const file of [...COMMITTED, ...extra]) cpSync(path.join(project, file), path.join(dir, file), { recursive: true });
  return dir;
}

interface JobRun {
  /** The name of the step that failed, when one did. */
  failed?: string;
  log: string;
  summary: string;
}

/** Runs the job `jobName` of the workflow `file` in `dir`, by the rule above. */
async function runJob(file: string, jobName: string, dir: string, substitutions: [string, string][]): Promise<JobRun> {
  const job = workflowJobs(file)[jobName];
  expect(job, `job ${jobName} of ${file}`).toBeDefined();
  const { steps, env } = runnable(job, secrets);
  for (const [from] of substitutions)
    expect(
      steps.some((step) => step.run.includes(from)),
      `${jobName} has ${from}`,
    ).toBe(true);
  const summaryFile = path.join(scratch, `${path.basename(dir)}-step-summary.md`);
  writeFileSync(summaryFile, '');
  const jobEnv = baseEnv({ ...env, GITHUB_WORKSPACE: dir, GITHUB_STEP_SUMMARY: summaryFile });
  const groups: number[] = [];
  let log = '';
  let failed: string | undefined;
  try {
    for (const step of steps) {
      let run = substitute(step.run, substitutions);
      if (run === 'npm ci' && installed) run = `cp -al ${installed}/node_modules node_modules`;
      const result = await runScript(['-e', '-c', run], { cwd: dir, env: jobEnv, bound: STEP_BOUND, leaveRunning: true });
      groups.push(result.group);
      log += `--- ${step.name}\n$ ${run}\n${result.output}`;
      if (result.code !== 0) {
        failed = step.name;
        log += `[exit code ${result.code}]\n`;
        break;
      }
      if (run === 'npm ci') installed = dir;
    }
  } finally {
    for (const group of groups) endGroup(group);
  }
  return { failed, log, summary: readFileSync(summaryFile, 'utf8') };
}

/** A doc's `sh` block run in the project (a developer's machine). */
async function runBlock(block: string, substitutions: [string, string][] = [], env: Record<string, string> = {}) {
  for (const [from] of substitutions) expect(block, `the block has ${from}`).toContain(from);
  const result = await runScript(['-e', '-c', substitute(block, substitutions)], { cwd: project, env: baseEnv(env), bound: STEP_BOUND });
  expect(result.code, result.output).toBe(0);
  return result.output;
}

const readResults = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Results;

test.describe.configure({ mode: 'default' });

test.beforeAll(async () => {
  test.setTimeout(300_000); // npm pack, and the doc's install from npm's cache
  scratch = mkdtempSync(path.join(os.tmpdir(), 'touchstone-ci-'));
  project = path.join(scratch, 'your-project');
  mkdirSync(path.join(project, 'vendor'), { recursive: true });
  // The doc's first block runs in a clone of touchstone: here, this checkout packs itself.
  expect(shBlock('npm ci\n')).toContain('npm pack --pack-destination ../your-project/vendor');
  const tarball = packPackage(test, path.join(project, 'vendor'));
  expect(path.basename(tarball)).toBe(`touchstone-${VERSION}.tgz`);
  writeFileSync(
    path.join(project, 'package.json'),
    `${JSON.stringify({ name: 'your-project', private: true, scripts: { test: 'node client.test.mjs' } }, null, 2)}\n`,
  );
  // The client's own tests: they take the service's URL from API_URL, as the doc's commands say.
  writeFileSync(
    path.join(project, 'client.test.mjs'),
    [
      "const response = await fetch(`${process.env.API_URL}/repos/octocat/hello-world/assignees`, { headers: { 'user-agent': 'your-client/1.0' } });",
      'const logins = (await response.json()).map((user) => user.login);',
      "if (!logins.includes('octocat')) throw new Error(`octocat is not an assignee: ${logins}`);",
      "console.log('client tests passed');",
      '',
    ].join('\n'),
  );
  mkdirSync(path.join(project, 'protos', 'api', 'v1'), { recursive: true });
  writeFileSync(
    path.join(project, 'protos', 'api', 'v1', 'api.proto'),
    'syntax = "proto3";\npackage api.v1;\n\n// A greeting.\nmessage Greeting {\n  string text = 1;\n  optional int32 times = 2;\n}\n\nservice Greeter {\n  rpc Greet(Greeting) returns (Greeting);\n}\n',
  );

  await runBlock(shBlock('npm install --save-dev'));
  const manifest = JSON.parse(readFileSync(path.join(project, 'package.json'), 'utf8'));
  expect(manifest.devDependencies).toEqual({ touchstone: `file:vendor/touchstone-${VERSION}.tgz` });
  expect(readFileSync(path.join(project, 'package-lock.json'), 'utf8')).toContain(`"resolved": "file:vendor/touchstone-${VERSION}.tgz"`);

  await runBlock(shBlock('npx touchstone tokens template'));
  const tokens = parse(readFileSync(path.join(project, 'tokens.yaml'), 'utf8')) as Record<string, string>;
  const world = readWorldTokens();
  expect(Object.keys(tokens).sort()).toEqual(Object.keys(world).sort());
  secrets = Object.fromEntries(
    Object.entries(tokens).map(([role, value]) => {
      const name = /^\$\{([A-Z0-9_]+)\}$/.exec(value)?.[1];
      expect(name, `${role}: ${value} reads a variable`).toBeDefined();
      return [name!, world[role]];
    }),
  );
  expect(secrets.TOKEN_ORG_OWNER).toBe(world['org-owner']);
});

test.afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test('workflow 1: the implementation, started and checked, is judged by every suite; the reports and the job summary are written', async () => {
  test.setTimeout(600_000);
  const port = String(await freePort());
  const dir = checkout('conformance');
  const job = await runJob('conformance.yml', 'conformance', dir, [
    ['your-server --world world --port 8080', `npx touchstone serve --port ${port}`],
    ['8080', port],
  ]);
  expect(job.failed, job.log).toBeUndefined();
  expect(job.log).toContain('nothing blocks a run');
  expect(existsSync(path.join(dir, 'world', 'tokens.json'))).toBe(true);
  expect(readFileSync(path.join(dir, 'server.log'), 'utf8')).toContain(`serving http://127.0.0.1:${port}`);
  const results = readResults(path.join(dir, 'conformance', 'results.json'));
  expect(results.verdict).toBe('conforming');
  expect(results.summary.SKIP + results.summary.ERROR + results.summary.FAIL).toBe(0);
  expect(results.summary.total).toBeGreaterThan(200);
  for (const report of ['report.html', 'junit.xml']) expect(existsSync(path.join(dir, 'conformance', report)), report).toBe(true);
  expect(job.summary).toContain('touchstone: **conforming**');
});

test('workflow 2: recordings made as the doc says are judged offline, and the client tests pass against theirs; a client asking for something new fails the job', async () => {
  test.setTimeout(600_000);
  // The implementation the recordings are made of, https://api.example.test in the doc.
  const implementation = `http://127.0.0.1:${await freePort()}`;
  const served = await runScript(['-c', `npx touchstone serve --port ${implementation.split(':').at(-1)} > served.log 2>&1 &`], {
    cwd: project,
    env: baseEnv(),
    bound: STEP_BOUND,
    leaveRunning: true,
  });
  try {
    await runScript(['-c', `curl --silent --output /dev/null --retry 60 --retry-delay 1 --retry-connrefused ${implementation}/`], {
      cwd: project,
      env: baseEnv(),
      bound: 120_000,
    });
    const service: [string, string] = ['https://api.example.test', implementation];
    await runBlock(shBlock('npx touchstone run --target https://api.example.test'), [service], secrets);
    const recorded = await runBlock(shBlock('node_modules/.bin/touchstone proxy --mode record'), [
      service,
      ['8080', String(await freePort())],
    ]);
    expect(recorded).toContain('client tests passed');
    expect(recorded).toContain('1 recorded');
  } finally {
    endGroup(served.group);
  }
  expect(existsSync(path.join(project, 'cassettes', 'client', 'default.cassette.json'))).toBe(true);

  const replayed = checkout('recorded-run', ['cassettes']);
  const run = await runJob('recordings.yml', 'recorded-run', replayed, []);
  expect(run.failed, run.log).toBeUndefined();
  const results = readResults(path.join(replayed, 'recorded-run', 'results.json'));
  expect(results.verdict).toBe('conforming');
  expect(results.target.recordings).toEqual({ mode: 'replay', folder: 'cassettes/impl' });
  expect(results.summary.SKIP + results.summary.ERROR + results.summary.FAIL).toBe(0);
  expect(results.summary.total).toBeGreaterThan(200);
  expect(run.summary).toContain('touchstone: **conforming**');

  const port = String(await freePort());
  const client = await runJob('recordings.yml', 'client', checkout('client', ['cassettes']), [['8080', port]]);
  expect(client.failed, client.log).toBeUndefined();
  expect(client.log).toContain('client tests passed');
  expect(client.log).toContain('1 answer replayed');

  // The negative control: the client now asks for another repository, which was never recorded.
  const changed = checkout('client-changed', ['cassettes']);
  writeFileSync(
    path.join(changed, 'client.test.mjs'),
    readFileSync(path.join(changed, 'client.test.mjs'), 'utf8').replace('octocat/hello-world', 'octo-org/widgets'),
  );
  const gated = await runJob('recordings.yml', 'client', changed, [['8080', port]]);
  expect(gated.failed, gated.log).toBe("The client's tests against the recorded answers");
  expect(gated.log).toContain('miss default GET /repos/octo-org/widgets/assignees');
  expect(gated.log).toMatch(/touchstone: proxy \(replay\): .*\n/);
});

test("workflow 3: the plugin, built, runs under protoc and is judged with its users' option and the project's own schema file", async () => {
  test.setTimeout(600_000);
  skipWithoutDebianProtoc(test);
  const jobs = workflowJobs('plugin-conformance.yml');
  expect(runnable(jobs.plugin, secrets).skipped).toContain('sudo apt-get update && sudo apt-get install --yes protobuf-compiler');
  const dir = checkout('plugin');
  const job = await runJob('plugin-conformance.yml', 'plugin', dir, [
    [
      'make protoc-gen-foo',
      `printf '#!/bin/sh\\nexec node_modules/.bin/protoc-gen-touchstone "$@"\\n' > protoc-gen-foo && chmod +x protoc-gen-foo`,
    ],
    ['paths=source_relative', 'format=md'],
  ]);
  expect(job.failed, job.log).toBeUndefined();
  expect(readFileSync(path.join(dir, 'gen', 'api', 'v1', 'api.md'), 'utf8')).toContain('Greeting');
  const results = readResults(path.join(dir, 'plugin-conformance', 'results.json'));
  expect(results.verdict).toBe('conforming');
  expect(results.target.plugin).toMatchObject({ parameter: 'format=md', proto: ['api/v1/api.proto'] });
  expect(results.cases.some((c) => c.suite === 'own')).toBe(true);
  expect(results.summary.SKIP + results.summary.ERROR + results.summary.FAIL).toBe(0);
  expect(job.summary).toContain('touchstone: **conforming**');
});

test('annotations of the installed package: no file= (node_modules is in no commit), the suite file and line named in the message', async () => {
  test.setTimeout(300_000);
  // A passing case listed as a known failure is a stale entry: the case FAILs, against the reference.
  writeFileSync(path.join(project, 'baseline.yaml'), 'known:\n  - case: conventions/bearer-scheme\n    reason: "bug 1"\n');
  const summary = path.join(scratch, 'annotations-step-summary.md');
  const result = await runScript(
    ['-c', 'npx touchstone run --only conventions/bearer-scheme --baseline baseline.yaml --reporter github --out annotated'],
    { cwd: project, env: baseEnv({ GITHUB_WORKSPACE: project, GITHUB_STEP_SUMMARY: summary }), bound: STEP_BOUND },
  );
  expect(result.code, result.output).toBe(1);
  const suiteFile = 'suites/service/conventions/conventions.yaml';
  const installedFile = path.join(project, 'node_modules', 'touchstone', suiteFile);
  const line = readFileSync(installedFile, 'utf8').split('\n').indexOf('  - id: bearer-scheme') + 1;
  expect(line).toBeGreaterThan(0);
  const annotation = result.output.split('\n').find((l) => l.startsWith('::error '));
  expect(annotation).toMatch(/^::error title=FAIL conventions\/bearer-scheme%3A [^:]+::/);
  expect(annotation!.endsWith(`%0Asuite file: touchstone/${suiteFile}:${line}`)).toBe(true);
  expect(readFileSync(summary, 'utf8')).toContain('`conventions/bearer-scheme`');
});
