// Every command explains itself: `--help` exits 0 and shows examples of its use; and the
// command reference (docs/commands.md) and the README's table of commands say the same.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { runCli } from '../../test-support/cli-process.js';
import { PROJECT_ROOT } from '../core/suite-paths.js';

const COMMANDS = [
  ['run'],
  ['serve'],
  ['target'],
  ['target', 'check'],
  ['proxy'],
  ['cassette'],
  ['plugin'],
  ['compiler'],
  ['list'],
  ['mutate'],
  ['report'],
  ['report', 'merge'],
  ['report', 'compare'],
  ['report', 'open'],
  ['report', 'show'],
  ['baseline'],
  ['baseline', 'update'],
  ['world'],
  ['world', 'export'],
  ['tokens'],
  ['tokens', 'template'],
  ['openapi'],
  ['protoc'],
];

// Each command's --help, asked once for both tests (a start of the CLI each).
let helpTexts: ReturnType<typeof runCli>[] | undefined;
const helpsOf = () => (helpTexts ??= COMMANDS.map((words) => runCli([...words, '--help'])));

test('every command has --help with examples; --version is listed only at the top', async () => {
  const helps = await Promise.all(helpsOf());
  helps.forEach((help, i) => {
    const name = COMMANDS[i].join(' ');
    expect(help.code, `${name}: ${help.stderr}`).toBe(0);
    expect(help.stdout, name).toContain(`touchstone ${name}`);
    expect(help.stdout, name).toContain('Examples:');
    // --version is touchstone's, listed once, at the top (protoc's is protoc's own flag).
    if (name !== 'protoc') expect(help.stdout, name).not.toContain('--version');
  });
  const top = await runCli(['--help']);
  for (const [command] of COMMANDS) expect(top.stdout).toContain(`touchstone ${command}`);
  expect(top.stdout).toContain('--version');
});

/** docs/commands.md's section of each command, by its first word: `## \`touchstone run\`` up to the next `## `. */
function commandSections(): Map<string, string> {
  const text = readFileSync(path.join(PROJECT_ROOT, 'docs', 'commands.md'), 'utf8');
  return new Map(
    [...text.matchAll(/^## `touchstone ([a-z-]+)[^\n]*\n([\s\S]*?)(?=^## |(?![\s\S]))/gm)].map(([, word, body]) => [word, body]),
  );
}

test('docs/commands.md has a section for every command, naming every option its --help lists; the README lists every command', async () => {
  const sections = commandSections();
  const readme = readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
  const helps = await Promise.all(helpsOf());
  const undocumented = helps.flatMap((help, i) => {
    const name = COMMANDS[i].join(' ');
    const section = sections.get(COMMANDS[i][0]);
    if (section === undefined) return [`${name}: no section in docs/commands.md`];
    // protoc's flags are protoc's own (touchstone protoc --help), not yargs options: the docs name the command.
    if (name === 'protoc') return [];
    const options = [...help.stdout.matchAll(/^ {2}--([a-z][a-z-]*)/gm)]
      .map(([, option]) => option)
      .filter((o) => o !== 'help' && o !== 'version');
    // A boolean that defaults to true is documented as its negation (--no-preflight).
    const named = (option: string) => new RegExp(`--(no-)?${option}(?![\\w-])`).test(section);
    return options.filter((option) => !named(option)).map((option) => `${name}: --${option} is not in its section of docs/commands.md`);
  });
  expect(undocumented).toEqual([]);
  for (const [command] of COMMANDS)
    expect(readme, `README's table of commands: touchstone ${command}`).toContain(`\`touchstone ${command}`);
});

test("--version is touchstone's own, whatever folder it runs in (another project's package.json, or none above)", async () => {
  const { version } = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string };
  const other = mkdtempSync(path.join(os.tmpdir(), 'touchstone-version-'));
  try {
    writeFileSync(path.join(other, 'package.json'), JSON.stringify({ name: 'someone-else', version: '9.9.9' }));
    for (const cwd of [other, path.parse(other).root]) {
      const result = await runCli(['--version'], {}, cwd);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout.trim(), `run in ${cwd}`).toBe(version);
    }
  } finally {
    rmSync(other, { recursive: true, force: true });
  }
});

test('a mistyped command or option is named with the closest known one; a name close to none gets no guess', async () => {
  const command = await runCli(['rn']);
  expect(command.code).toBe(2);
  expect(command.stderr).toContain('Unknown argument: rn (rn: did you mean run?)');
  // The options of the command that refused it: --workers is run's.
  const options = await runCli(['run', '--suites', 'x', '--workrs', '2']);
  expect(options.code).toBe(2);
  expect(options.stderr).toContain('(--suites: did you mean --suite?; --workrs: did you mean --workers?)');
  const far = await runCli(['run', '--zzzzzz']);
  expect(far.stderr).toContain('Unknown argument: zzzzzz\n');
});

// Plugins and compilers have no endpoints, and their cases need no tokens or capabilities: their
// help offers neither, and --min-coverage refuses the endpoint kinds. Both share run's workers,
// shards and selection.
const PROTOCOL_COMMANDS: [command: string, target: string[]][] = [
  ['plugin', ['--plugin', 'cat']],
  ['compiler', ['--compiler', 'protoc']],
];
for (const [command, target] of PROTOCOL_COMMANDS) {
  test(`${command} --help offers what a ${command} run has: workers, shards, selection, requirement coverage only`, async () => {
    const help = await runCli([command, '--help']);
    expect(help.code).toBe(0);
    for (const option of ['--workers', '--shard', '--only', '--grep', '--grep-invert']) expect(help.stdout).toContain(option);
    expect(help.stdout).not.toMatch(/endpoint|tokens or capabilities/);
    const refusals: [string[], string][] = [
      [['--min-coverage', 'endpoints=50'], '--min-coverage endpoints=50: give a percentage, or KIND=PERCENT with KIND requirements'],
      [
        ['--min-coverage', 'endpoint-aspects=80'],
        '--min-coverage endpoint-aspects=80: give a percentage, or KIND=PERCENT with KIND requirements',
      ],
      [['--workers', '0'], '--workers 0 is not a positive whole number'],
      [['--shard', '3/2'], '--shard 3/2 is not i/n'],
      [['--grep', 'zzzz-no-such-case'], '--grep zzzz-no-such-case matches no case'],
    ];
    for (const [args, message] of refusals) {
      const refused = await runCli([command, ...target, ...args]);
      expect(refused.code, args.join(' ')).toBe(2);
      expect(refused.stderr, args.join(' ')).toContain(message);
    }
  });
}

test('report --help names its commands and their examples (show among them); open shows reports/latest without a folder; --reporter is explained where reports are written', async () => {
  const [report, open, merge, run, plugin, mistyped] = await Promise.all([
    runCli(['report', '--help']),
    runCli(['report', 'open', '--help']),
    runCli(['report', 'merge', '--help']),
    runCli(['run', '--help']),
    runCli(['plugin', '--help']),
    runCli(['report', 'opne']),
  ]);
  expect(report.code, report.stderr).toBe(0);
  for (const line of [
    /touchstone report merge <parts\.\.>\s+Join the report folders of the shards/,
    /touchstone report compare <runs\.\.>\s+Put runs side by side/,
    /touchstone report open \[dir\]\s+Open a run's report\.html/,
    /touchstone report open\s+the HTML report of the latest run in\s+a browser/,
    /touchstone report show \[dir\]\s+Serve a run's report\.html/,
  ])
    expect(report.stdout).toMatch(line);
  expect(open.stdout).toMatch(/dir\s+a report folder, or the HTML file \(default reports\/latest, the latest\s+run\)/);
  for (const help of [merge, run, plugin]) {
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(
      '--reporter reports to write, repeatable or comma-separated: html, junit, json, markdown, ctrf, github (default: all but github; results.json is always written)',
    );
  }
  expect(mistyped.code).toBe(2);
  expect(mistyped.stderr).toBe('touchstone: Unknown argument: opne (opne: did you mean open?)\n');
  // A bare group command names its commands, not yargs' count of arguments.
  for (const [group, message] of [
    ['report', 'name a report command: merge, compare, open or show'],
    ['baseline', 'name a baseline command: update'],
    ['world', 'name a world command: export'],
  ]) {
    const bare = await runCli([group]);
    expect(bare.code, group).toBe(2);
    expect(bare.stderr, group).toBe(`touchstone: ${message}\n`);
  }
});
