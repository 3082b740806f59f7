// Every command explains itself: `--help` exits 0 and shows examples of its use.
import { expect, test } from '@playwright/test';
import { runCli } from '../../test-support/cli-process.js';

const COMMANDS = [
  ['run'],
  ['serve'],
  ['proxy'],
  ['cassette'],
  ['plugin'],
  ['compiler'],
  ['mutate'],
  ['report'],
  ['report', 'merge'],
  ['report', 'compare'],
  ['report', 'open'],
  ['baseline'],
  ['baseline', 'update'],
  ['world'],
  ['world', 'export'],
  ['tokens'],
  ['tokens', 'template'],
  ['openapi'],
  ['protoc'],
];

test('every command has --help with examples', async () => {
  const helps = await Promise.all(COMMANDS.map((words) => runCli([...words, '--help'])));
  helps.forEach((help, i) => {
    const name = COMMANDS[i].join(' ');
    expect(help.code, `${name}: ${help.stderr}`).toBe(0);
    expect(help.stdout, name).toContain(`touchstone ${name}`);
    expect(help.stdout, name).toContain('Examples:');
  });
  const top = await runCli(['--help']);
  for (const [command] of COMMANDS) expect(top.stdout).toContain(`touchstone ${command}`);
});
