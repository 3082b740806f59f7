// `touchstone cassette show|lint|diff|export|import`: working with recordings without a proxy.
// lint and diff (of two cassettes, or two folders of them) exit 1 when they find something, so
// CI can gate on them.
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Argv } from 'yargs';
import { EXIT, HarnessError } from '../core/errors.js';
import { CASSETTE_SUFFIX, isDigestOnly, type Body, type Cassette } from '../cassette/cassette-format.js';
import { describeDiff, describeFolderDiff, diffCassetteFolders, diffCassettes, differingCassettes } from '../cassette/cassette-diff.js';
import { formatCassetteShow, showCassette } from '../cassette/cassette-show.js';
import { loadCassetteFile, readBodyBytes } from '../cassette/cassette-load.js';
import { openCassetteWriter } from '../cassette/cassette-store.js';
import { toHar } from '../cassette/har-export.js';
import { fromHar } from '../cassette/har-import.js';
import { toNockDefinitions } from '../cassette/nock-export.js';
import { createRedactor } from '../cassette/redaction.js';
import { readSecretsFile } from '../http/tokens-file.js';
import { readDataFile } from '../core/validated-file.js';
import { plural } from '../core/plural.js';

/** Whether a path named on the command line is a folder (false: a file); one that does not exist is a usage error. */
function isFolder(p: string): boolean {
  if (!existsSync(p)) throw new HarnessError('USAGE', `${p}: no such file or folder`);
  return statSync(p).isDirectory();
}

/** The *.cassette.json at any depth below a folder, as paths relative to it, sorted. */
function cassettesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((entry) => entry.endsWith(CASSETTE_SUFFIX))
    .sort();
}

/** Every *.cassette.json named, or found below a named folder. */
function cassetteFiles(paths: string[]): string[] {
  return paths.flatMap((p) => (isFolder(p) ? cassettesBelow(p).map((entry) => path.join(p, entry)) : [p]));
}

/** Loads a cassette and reads every body, so a missing or altered sidecar is found too. */
function loadChecked(file: string): { cassette: Cassette; readBody: (b: Body) => Buffer } {
  const cassette = loadCassetteFile(file);
  const dir = path.dirname(file);
  for (const { request, response } of cassette.interactions) {
    for (const body of [request.body, response.body]) if (body && !isDigestOnly(body)) readBodyBytes(body, dir);
  }
  return { cassette, readBody: (b) => readBodyBytes(b, dir) };
}

function lint(paths: string[]): number {
  const files = cassetteFiles(paths);
  let problems = 0;
  for (const file of files) {
    const found: string[] = [];
    try {
      if (loadChecked(file).cassette.incomplete)
        found.push(`${file} is incomplete (a crash ended its recording): replay refuses it; record it again`);
    } catch (error) {
      if (!(error instanceof HarnessError)) throw error;
      found.push(error.message);
    }
    for (const leftover of ['.journal', '.lock']) {
      if (existsSync(file + leftover))
        found.push(`${file}${leftover} is left from a recording that did not finish; the next proxy start recovers it`);
    }
    problems += found.length;
    for (const message of found) process.stdout.write(`touchstone: ${message}\n`);
  }
  process.stdout.write(`touchstone: ${plural(files.length, 'cassette')}, ${plural(problems, 'problem')}\n`);
  return problems ? EXIT.failed : EXIT.conforming;
}

/**
 * Two cassettes, or two folders of them cassette by cassette; exit 1 when anything differs.
 * Decision: a folder against a file is a usage error (which cassette of the folder the file
 * stands for is not for diff to guess), and so is a folder holding no cassettes (a path typed
 * wrong would otherwise list everything of the other folder as added or removed).
 */
function diff(a: string, b: string, options: { ignoreHeaders: string[]; ignoreFields: string[] }): number {
  const folders = [isFolder(a), isFolder(b)];
  if (folders[0] !== folders[1]) {
    const [folder, file] = folders[0] ? [a, b] : [b, a];
    throw new HarnessError('USAGE', `cassette diff compares two cassettes or two folders of them: ${folder} is a folder, ${file} a file`);
  }
  if (!folders[0]) {
    const before = loadChecked(a);
    const after = loadChecked(b);
    const entries = diffCassettes(before.cassette, after.cassette, { ...options, readBody: before.readBody, readLiveBody: after.readBody });
    process.stdout.write(entries.length ? `${describeDiff(entries)}\n` : 'touchstone: no differences\n');
    return entries.length ? EXIT.failed : EXIT.conforming;
  }
  const [inA, inB] = [a, b].map((dir) => {
    const found = cassettesBelow(dir);
    if (!found.length) throw new HarnessError('USAGE', `${dir} holds no cassettes (*${CASSETTE_SUFFIX}) to compare`);
    return found;
  });
  const result = diffCassetteFolders(inA, inB, (side, name) => loadChecked(path.join(side === 'a' ? a : b, name)), options);
  process.stdout.write(`${describeFolderDiff(result, a, b)}\n`);
  return differingCassettes(result) ? EXIT.failed : EXIT.conforming;
}

/** Its options and work; harness/cli/main.ts names and describes it. */
export const command = {
  builder: (yargs: Argv) =>
    yargs
      .command(
        'show <file>',
        'list what a cassette holds (one line per interaction), or what its recording under way has journaled so far',
        (y) => y.option('json', { type: 'boolean', default: false, describe: 'print it as JSON, for machines' }),
        (argv) => {
          const show = showCassette(argv.file as string);
          process.stdout.write(argv.json ? `${JSON.stringify(show, null, 2)}\n` : formatCassetteShow(show));
        },
      )
      .command('lint <paths..>', 'validate cassettes (schema, sidecars, leftovers of crashed recordings)', {}, (argv) => {
        process.exitCode = lint(argv.paths as string[]);
      })
      .command(
        'diff <a> <b>',
        'what changed between two recordings (or two folders of them, cassette by cassette), by JSON path, ignoring volatile fields',
        (y) =>
          y
            .option('ignore-header', { type: 'array', string: true, default: [] as string[], describe: 'more headers to ignore' })
            .option('ignore-field', {
              type: 'array',
              string: true,
              default: [] as string[],
              describe: 'more body fields (names or $.paths) to ignore',
            }),
        (argv) => {
          process.exitCode = diff(argv.a as string, argv.b as string, { ignoreHeaders: argv.ignoreHeader, ignoreFields: argv.ignoreField });
        },
      )
      .command(
        'export <file>',
        'write a cassette as HAR 1.2 or as nock definitions',
        (y) =>
          y
            .option('format', { choices: ['har', 'nock'] as const, demandOption: true })
            .option('origin', { type: 'string', describe: 'origin of the exported URLs (default http://target.invalid)' })
            .option('out', { type: 'string', describe: 'output file (default stdout)' }),
        (argv) => {
          const { cassette, readBody } = loadChecked(argv.file as string);
          const options = { origin: argv.origin, readBody };
          const data = argv.format === 'har' ? toHar(cassette, options) : toNockDefinitions(cassette, options);
          const text = `${JSON.stringify(data, null, 2)}\n`;
          if (argv.out) writeFileSync(argv.out, text);
          else process.stdout.write(text);
        },
      )
      .command(
        'import <har> <out>',
        'turn a HAR 1.2 file into a cassette (redacted like a recording)',
        (y) => y.option('secrets', { type: 'string', describe: 'YAML map name -> secret, recorded as <secret:name>' }),
        (argv) => {
          const out = argv.out as string;
          if (!out.endsWith(CASSETTE_SUFFIX)) throw new HarnessError('USAGE', `${out}: the cassette's name must end in ${CASSETTE_SUFFIX}`);
          const har = readDataFile(argv.har as string, 'import');
          const imported = fromHar(har, path.basename(out, CASSETTE_SUFFIX));
          const redactor = createRedactor({ secrets: argv.secrets ? readSecretsFile(argv.secrets, '--secrets') : undefined });
          const writer = openCassetteWriter(out, { mode: 'record', name: imported.name });
          for (const interaction of imported.interactions) writer.append(redactor.redactInteraction(interaction));
          const written = writer.close({ redactions: redactor.notes() });
          process.stdout.write(`touchstone: wrote ${out} (${written.interactions.length} interactions)\n`);
        },
      )
      .demandCommand(1, 'name an action: show, lint, diff, export or import')
      .example('$0 cassette show session.cassette.json', 'its interactions, misses and redactions (also while it is being recorded)')
      .example('$0 cassette lint cassettes/reference', 'every recording valid, no leftovers')
      .example('$0 cassette diff before.cassette.json after.cassette.json', 'what changed, ignoring volatile fields')
      .example('$0 cassette diff before/ after/', 'the cassettes added, removed and changed between two folders')
      .example('$0 cassette export session.cassette.json --format har --out session.har', 'for browser devtools and HAR viewers'),
  handler: () => undefined,
};
