// `touchstone report merge|compare|open|show`: what can be done with report folders after the runs.
import path from 'node:path';
import type { Argv } from 'yargs';
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { splitCommand } from '../plugin/plugin-process.js';
import { EXIT, HarnessError } from '../core/errors.js';
import { writeFileAtomic } from '../core/write-file-atomic.js';
import { renderCompareHtml } from '../report/compare-html.js';
import { renderCompareMarkdown } from '../report/compare-markdown.js';
import { compareRuns, regressed, runLabels } from '../report/compare-runs.js';
import { catalogueFingerprint } from '../core/fingerprint.js';
import type { Results } from '../core/results.js';
import { suitePaths } from '../core/suite-paths.js';
import { allCases } from '../mutate/switch-coverage.js';
import { formatSummary } from '../report/console-summary.js';
import { mergeResults } from '../report/merge-results.js';
import { readResults, resultsFile } from '../report/read-results.js';
import { REPORT_FILES, writeReports } from '../report/write-reports.js';
import { parseReporters, REPORTER_OPTION_DESCRIPTION } from '../report/reporters.js';
import { guarded } from './guarded.js';
import { existingLatestLink, LATEST, REPORTS_DIR, updateLatestLink } from '../report/latest-link.js';
import { reportDirectory } from '../run/conformance-process.js';
import { DEFAULT_REPORT_PORT, parsePort, serveReport } from '../report/report-server.js';
import { loadRequirementRegistry, requirementsFor } from '../core/requirement-registry.js';
import { exitCodeOf } from '../core/exit-code.js';
import { makeDirectory } from '../../lib/make-directory.js';

interface MergeOptions {
  parts: string[];
  out: string;
  reporter?: string[];
}

const mergeCommand = {
  command: 'merge <parts..>',
  describe: 'Join the report folders of the shards of one run (--shard i/n) into the reports of the whole run',
  builder: (yargs: Argv) =>
    yargs
      .positional('parts', {
        type: 'string',
        array: true,
        demandOption: true,
        describe: 'report folders (or results.json files) of every shard',
      })
      .option('out', { type: 'string', demandOption: true, describe: 'where the merged reports go' })
      .option('reporter', { type: 'array', string: true, describe: REPORTER_OPTION_DESCRIPTION })
      .example('$0 report merge shard-1 shard-2 shard-3 --out reports/all', 'the three shards of one run, judged together'),
  handler: (argv: MergeOptions) => {
    process.exitCode = guarded(() => {
      const reporters = parseReporters(argv.reporter);
      const parts = argv.parts.map(readResults);
      const merged = mergeResults(parts, catalogueOf(argv.parts[0], parts[0]));
      const outDir = reportDirectory(argv.out, new Date());
      process.stdout.write(formatSummary(merged, outDir, writeReports(outDir, merged, reporters)));
      updateLatestLink(outDir);
      return exitCodeOf(merged);
    });
  },
};

interface CompareOptions {
  runs: string[];
  label: string[];
  out?: string;
}

export const COMPARE_FILES = { html: 'compare.html', markdown: 'compare.md' } as const;

const compareCommand = {
  command: 'compare <runs..>',
  describe:
    'Put runs side by side (implementations against each other, or one before and after a change); exit 1 when a later run regressed against the first',
  builder: (yargs: Argv) =>
    yargs
      .positional('runs', {
        type: 'string',
        array: true,
        demandOption: true,
        describe: 'report folders (or results.json files); the first is the one compared against',
      })
      .option('label', {
        type: 'array',
        string: true,
        default: [] as string[],
        describe: 'a name for each run, in order (default: the folder names)',
      })
      // Required, but checked in the handler after the runs: yargs checks a required option
      // before anything else, so `report compare r1` said "Missing required argument: out"
      // where the mistake is the one run.
      .option('out', { type: 'string', describe: `where ${COMPARE_FILES.html} and ${COMPARE_FILES.markdown} go (required)` })
      .example(
        '$0 report compare reports/main reports/branch --out reports/diff',
        'what a change did: newly failing cases first, exit 1 if any',
      )
      .example(
        '$0 report compare reports/ref reports/impl-a reports/impl-b --label reference a b --out reports/table',
        'implementations side by side',
      ),
  handler: (argv: CompareOptions) => {
    process.exitCode = guarded(() => {
      if (argv.runs.length < 2) throw new HarnessError('USAGE', `compare needs at least two runs; got ${argv.runs.length}`);
      if (argv.out === undefined)
        throw new HarnessError('USAGE', `compare needs --out DIR, the folder ${COMPARE_FILES.html} and ${COMPARE_FILES.markdown} go to`);
      if (argv.label.length > argv.runs.length) throw new HarnessError('USAGE', `${argv.label.length} labels for ${argv.runs.length} runs`);
      const labels = runLabels(
        argv.label,
        argv.runs.map((r) => path.basename(path.dirname(resultsFile(r)))),
      );
      const comparison = compareRuns(argv.runs.map((r, i) => ({ label: labels[i], results: readResults(r) })));
      const outDir = path.resolve(argv.out);
      makeDirectory(outDir);
      const markdown = renderCompareMarkdown(comparison);
      writeFileAtomic(path.join(outDir, COMPARE_FILES.html), renderCompareHtml(comparison));
      writeFileAtomic(path.join(outDir, COMPARE_FILES.markdown), markdown);
      process.stdout.write(`${markdown}
reports: ${outDir}/{${COMPARE_FILES.html},${COMPARE_FILES.markdown}}
`);
      return regressed(comparison) ? EXIT.failed : EXIT.conforming;
    });
  },
};

// Hand-written, not the `open` package: `open` does not read $BROWSER (tools built on it add
// that themselves), resolves as soon as its opener is spawned (a failing xdg-open is then
// silent, the very slip `report open` had: "opening …" and exit 0 with no browser), and
// brings four packages (and theirs) and its own copy of xdg-open for the three commands below. Not covered
// here that `open` covers: WSL's Windows browser (set BROWSER=wslview there).
/** The command that shows a file to the user: $BROWSER (words and quotes as in a shell), else the platform's opener. */
function opener(): string[] {
  if (process.env.BROWSER) return splitCommand(process.env.BROWSER);
  if (process.platform === 'darwin') return ['open'];
  if (process.platform === 'win32') return ['cmd', '/c', 'start', '""'];
  // Without a display, xdg-open can only try text browsers, which cannot show a page to a
  // command whose output goes nowhere: say so at once rather than after its seconds of trying.
  if (!process.env.DISPLAY && !process.env.WAYLAND_DISPLAY)
    throw new HarnessError(
      'USAGE',
      'no browser can be started here: no display (DISPLAY and WAYLAND_DISPLAY are unset) and no BROWSER set',
    );
  return ['xdg-open'];
}

/** DIR's report.html, or its compare.html, or DIR itself when it is an HTML file. */
function pageIn(given: string): string {
  const candidates =
    existsSync(given) && statSync(given).isDirectory() ? [REPORT_FILES.html, COMPARE_FILES.html].map((f) => path.join(given, f)) : [given];
  const page = candidates.find((f) => existsSync(f) && f.endsWith('.html'));
  if (!page) throw new HarnessError('USAGE', `${given}: no ${REPORT_FILES.html} or ${COMPARE_FILES.html} there`);
  return path.resolve(page);
}

/**
 * How long `report open` waits to learn whether the opener failed. An opener (xdg-open, open,
 * start) hands the page to the browser and exits: a non-zero status in this time is a failure,
 * and the report is served instead. A $BROWSER that is the browser itself runs on: still
 * running after it, it counts as opened.
 */
const OPENER_GRACE_MS = 5_000;

/** Shows `page` in a browser; undefined when one showed it, else why none did. */
async function openInBrowser(page: string): Promise<string | undefined> {
  const url = pathToFileURL(page).href;
  let words: string[];
  try {
    words = opener();
  } catch (error) {
    if (!(error instanceof HarnessError)) throw error;
    return error.message;
  }
  const [command, ...args] = words;
  // Detached: the browser outlives this command.
  const child = spawn(command, [...args, url], { stdio: 'ignore', detached: true });
  const ended = await new Promise<{ error?: Error; code?: number | null; signal?: NodeJS.Signals | null } | undefined>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), OPENER_GRACE_MS);
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve({ error });
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
  child.unref();
  if (ended?.error) return `cannot start ${command} (${ended.error.message})`;
  if (ended && ended.code !== 0)
    return `${command} ${ended.signal ? `was killed by ${ended.signal}` : `exited with status ${ended.code}`}: no browser showed it`;
  process.stdout.write(`touchstone: opened ${url} (${command})\n`);
  return undefined;
}

/** A folder as the user would name it from here: relative when it lies below the current folder. */
function named(folder: string): string {
  const relative = path.relative(process.cwd(), folder);
  return relative === '' ? '.' : relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative) ? folder : relative;
}

/** Serves `page`'s folder (report-server.ts) until SIGINT or SIGTERM; the exit code: 0 once stopped, 2 when it cannot listen. */
async function serveUntilStopped(page: string, port: number): Promise<number> {
  // Listening for the signals before the address is out: a user (or a test) may stop it at once.
  let stop = () => {};
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  process.once('SIGINT', stop).once('SIGTERM', stop);
  try {
    const server = await serveReport(page, port);
    process.stdout.write(`touchstone: serving ${named(path.dirname(page))} at ${server.url} — Ctrl-C to stop\n`);
    await stopped;
    await server.close();
    return EXIT.conforming;
  } catch (error) {
    if (!(error instanceof HarnessError)) throw error;
    process.stderr.write(`touchstone: ${error.message}\n`);
    return error.exitCode;
  } finally {
    process.off('SIGINT', stop).off('SIGTERM', stop);
  }
}

const PORT_DESCRIPTION = `port on 127.0.0.1 (default ${DEFAULT_REPORT_PORT}, as Playwright's show-report; 0 picks a free one)`;

/** DIR's page (reports/latest's without one) and --port, as `report show` and `report open` read them; no page after a usage error said. */
function pageAndPort(verb: 'open' | 'show', argv: { dir?: string; port: unknown }): { page: string; port: number } {
  let chosen = { page: '', port: 0 };
  process.exitCode = guarded(() => {
    chosen = {
      page: pageIn(argv.dir ?? existingLatestLink(`name a report folder, e.g. touchstone report ${verb} reports/ci`)),
      port: parsePort(argv.port),
    };
    return EXIT.conforming;
  });
  return chosen;
}

const DIR_DESCRIPTION = `a report folder, or the HTML file (default ${REPORTS_DIR}/${LATEST}, the latest run)`;

// Decision: `report open` takes --port too: where no browser can be started it serves the
// report as `report show` does, and a second such fallback (or a test) needs another port.
const openCommand = {
  command: 'open [dir]',
  describe:
    "Open a run's report.html (or a comparison's compare.html) in a browser ($BROWSER, else the system's); where none can be started, serve it as `report show` does",
  builder: (yargs: Argv) =>
    yargs
      .positional('dir', { type: 'string', describe: DIR_DESCRIPTION })
      .option('port', {
        type: 'number',
        default: DEFAULT_REPORT_PORT,
        describe: `where no browser can be started: the ${PORT_DESCRIPTION}`,
      })
      .example('$0 report open', 'report.html of the latest run (reports/latest)')
      .example('$0 report open reports/ci', 'report.html of that run')
      .example('BROWSER=firefox $0 report open reports/diff', 'compare.html, in the browser named'),
  handler: async (argv: { dir?: string; port: unknown }) => {
    const { page, port } = pageAndPort('open', argv);
    if (page === '') return;
    const failed = await openInBrowser(page);
    if (failed === undefined) return;
    process.stderr.write(`touchstone: ${failed}; serving the report over HTTP instead (open its address in a browser, or set BROWSER)\n`);
    process.exitCode = await serveUntilStopped(page, port);
  },
};

const showCommand = {
  command: 'show [dir]',
  describe: "Serve a run's report.html (or a comparison's compare.html) and the files beside it over HTTP on 127.0.0.1, until Ctrl-C",
  builder: (yargs: Argv) =>
    yargs
      .positional('dir', { type: 'string', describe: DIR_DESCRIPTION })
      .option('port', { type: 'number', default: DEFAULT_REPORT_PORT, describe: PORT_DESCRIPTION })
      .example('$0 report show', `report.html of the latest run at http://127.0.0.1:${DEFAULT_REPORT_PORT}/report.html`)
      .example('$0 report show reports/diff --port 0', 'compare.html, on a free port'),
  handler: async (argv: { dir?: string; port: unknown }) => {
    const { page, port } = pageAndPort('show', argv);
    if (page === '') return;
    process.exitCode = await serveUntilStopped(page, port);
  },
};

/** This touchstone's requirements and case order, when they are the ones the parts were judged by. */
function catalogueOf(given: string, results: Results) {
  const ours = catalogueFingerprint();
  if (ours.requirements !== results.fingerprint.requirements || ours.suites !== results.fingerprint.suites)
    throw new HarnessError(
      'USAGE',
      `${given} was judged by other suites or requirements than this touchstone ${results.tool.version} holds: merge with the touchstone that ran the shards`,
    );
  const registry = loadRequirementRegistry(suitePaths.requirements);
  return { requirements: requirementsFor(registry, results.kind), order: allCases(registry).map((c) => c.id) };
}

/** Its options and work; harness/cli/main.ts names and describes it. */
export const command = {
  builder: (yargs: Argv) =>
    yargs
      .command(mergeCommand)
      .command(compareCommand)
      .command(openCommand)
      .command(showCommand)
      .demandCommand(1, 'name a report command: merge, compare, open or show')
      .example('$0 report merge shard-1 shard-2 --out all', 'the shards of one run, judged together')
      .example('$0 report compare reports/main reports/branch --out diff', 'what a change did; exit 1 on a regression')
      .example('$0 report open', 'the HTML report of the latest run in a browser')
      .example('$0 report show', 'the same, served over HTTP on 127.0.0.1 until Ctrl-C'),
  handler: () => {},
};
