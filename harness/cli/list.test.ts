// `touchstone list`: what a run would run and judge, without running it, in aligned columns for
// a person and as JSON for a script; the selection is the one `run`, `plugin` and `compiler` make.
import { expect, test } from '@playwright/test';
import { readdirSync } from 'node:fs';
import { runCli } from '../../test-support/cli-process.js';
import { loadRequirementRegistry, sideOf } from '../core/requirement-registry.js';
import { suitePaths } from '../core/suite-paths.js';
import { loadFaultRegistry, loadVariantRegistry } from '../mutate/switch-registry.js';
import { loadCompilerSuites } from '../plugin/plugin-suite-loader.js';
import { selectCases } from '../core/select-cases.js';
import { loadSuites } from '../suite/suite-loader.js';
import { readWorldRoles } from '../suite/world-tokens.js';

const keysOf = (suites: { name: string; cases: { id: string }[] }[]) => suites.flatMap((s) => s.cases.map((c) => `${s.name}/${c.id}`));

async function listed(args: string[]) {
  const result = await runCli(['list', ...args]);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

async function listedJson<T = Record<string, unknown>>(args: string[]): Promise<T[]> {
  return JSON.parse(await listed([...args, '--json'])) as T[];
}

/** The table's rows, and where each header's column starts (every row aligned under it). */
function table(text: string) {
  const [header, ...rows] = text.trimEnd().split('\n');
  const starts = [...header.matchAll(/\S+/g)].map((m) => m.index);
  for (const row of rows)
    for (const start of starts.slice(1)) expect(row[start - 1], `a column starts at ${start} in:\n${header}\n${row}`).toBe(' ');
  return { header, rows, cells: rows.map((row) => starts.map((start, i) => row.slice(start, starts[i + 1]).trim())) };
}

test('list suites and cases: a table with aligned columns, the same in --json, selected as run selects them', async () => {
  const suites = table(await listed(['suites']));
  expect(suites.header).toMatch(/^SUITE +CASES +/);
  const service = loadSuites(suitePaths.service);
  expect(suites.cells.map(([name, count]) => [name, Number(count)])).toEqual(service.map((s) => [s.name, s.cases.length]));
  expect(suites.cells.map(([name]) => name)).toEqual(
    readdirSync(suitePaths.service, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort(),
  );

  // As `touchstone run --suite assignees --suite traffic --grep 404 --grep-invert check` would run them.
  const filters = ['--suite', 'assignees', '--suite', 'traffic', '--grep', '404', '--grep-invert', 'check'];
  const expected = keysOf(
    selectCases(loadSuites(suitePaths.service, ['assignees', 'traffic']), { only: [], grep: '404', grepInvert: 'check' }),
  );
  expect(expected.length).toBeGreaterThan(1);
  const cases = table(await listed(['cases', ...filters]));
  expect(cases.header).toMatch(/^CASE +LEVEL +TITLE$/);
  expect(cases.cells.map(([key]) => key)).toEqual(expected);
  const json = await listedJson<{ id: string; level: string; title: string; requirements: string[]; roles: string[] }>([
    'cases',
    ...filters,
  ]);
  expect(json.map((c) => c.id)).toEqual(expected);
  expect(json.map((c) => [c.id, c.level, c.title])).toEqual(cases.cells);
  for (const c of json) expect(c.requirements.length).toBeGreaterThan(0);

  const only = await listedJson(['cases', '--only', expected[0], '--only', expected[1]]);
  expect(only.map((c) => c.id)).toEqual(expected.slice(0, 2));
});

test('list cases --kind plugin|compiler: the suites `touchstone plugin` and `touchstone compiler` run', async () => {
  const plugin = table(await listed(['suites', '--kind', 'plugin']));
  expect(plugin.cells.map(([name]) => name)).toEqual(['files', 'io']);
  const compiler = await listedJson<{ id: string }>(['cases', '--kind', 'compiler', '--suite', 'names']);
  expect(compiler.map((c) => c.id)).toEqual(keysOf(loadCompilerSuites(suitePaths.compiler, ['names'])));
  const grepped = await listedJson<{ id: string; title: string }>(['cases', '--kind', 'plugin', '--grep', '^io/']);
  expect(grepped.length).toBeGreaterThan(0);
  expect(grepped.every((c) => c.id.startsWith('io/'))).toBe(true);
});

test('list requirements: id, level, the cases that check each, the quote shortened in the table and whole in --json', async () => {
  const registry = loadRequirementRegistry(suitePaths.requirements);
  const all = await listedJson<{ id: string; level: string; quote: string; cases: string[] }>(['requirements']);
  const service = [...registry.values()].filter((r) => sideOf(r.id) === 'service');
  expect(all.map((r) => r.id)).toEqual(service.map((r) => r.id));
  expect(all.map((r) => r.quote)).toEqual(service.map((r) => r.quote));
  const list = all.find((r) => r.id === 'assignees.list')!;
  expect(list.cases.length).toBeGreaterThan(0);
  expect(list.cases.every((key) => key.startsWith('assignees/'))).toBe(true);

  const text = table(await listed(['requirements']));
  expect(text.header).toMatch(/^REQUIREMENT +LEVEL +CASES +QUOTE$/);
  const long = all.find((r) => r.quote.length > 100)!;
  const row = text.cells.find(([id]) => id === long.id)!;
  expect(row[1]).toBe(long.level);
  expect(row[3].endsWith('…')).toBe(true);
  expect(long.quote.startsWith(row[3].slice(0, -1))).toBe(true);

  // Narrowed as a run narrows its verdict: to the requirements the selected cases cite.
  const one = list.cases[0];
  const narrowed = await listedJson<{ id: string; cases: string[] }>(['requirements', '--only', one]);
  expect(narrowed.length).toBeGreaterThan(0);
  for (const r of narrowed) expect(r.cases).toEqual([one]);
  expect(narrowed.map((r) => r.id)).toContain('assignees.list');
});

test('list roles: every role of the world and anonymous, what its token is, and the cases that act as it', async () => {
  const roles = await listedJson<{ role: string; token: string; cases: string[] }>(['roles']);
  expect(roles.map((r) => r.role)).toEqual([...readWorldRoles().keys()]);
  expect(roles.find((r) => r.role === 'anonymous')!.cases.length).toBeGreaterThan(0);
  const text = table(await listed(['roles']));
  expect(text.header).toMatch(/^ROLE +CASES +TOKEN$/);
  expect(text.cells.map(([role, count]) => [role, Number(count)])).toEqual(roles.map((r) => [r.role, r.cases.length]));
  // The roles a suite needs tokens for: those its cases act as.
  const traffic = await listedJson<{ role: string; cases: string[] }>(['roles', '--suite', 'traffic']);
  expect(traffic.length).toBeLessThan(roles.length);
  for (const r of traffic) {
    expect(r.cases.length).toBeGreaterThan(0);
    expect(r.cases.every((key) => key.startsWith('traffic/'))).toBe(true);
  }
});

test('list faults and variants: the built-in switches `touchstone mutate` turns on, by side', async () => {
  const registry = loadRequirementRegistry(suitePaths.requirements);
  const faults = await listedJson<{ id: string; breaks: string[]; cases: string[] }>(['faults', '--kind', 'plugin']);
  expect(faults.map((f) => f.id)).toEqual(
    loadFaultRegistry(suitePaths.faults, registry)
      .filter((f) => f.side === 'plugin')
      .map((f) => f.id),
  );
  // Every fault can be caught: some case cites what it breaks (the switch lint holds).
  for (const fault of faults) expect(fault.cases.length, fault.id).toBeGreaterThan(0);
  const text = table(await listed(['faults', '--kind', 'plugin']));
  expect(text.header).toMatch(/^FAULT +BREAKS +DOES$/);
  expect(text.cells.map(([id]) => id)).toEqual(faults.map((f) => f.id));

  const variants = await listedJson<{ id: string; allowed_by: string }>(['variants']);
  expect(variants.map((v) => v.id)).toEqual(
    loadVariantRegistry(suitePaths.variants, registry)
      .filter((v) => v.side === 'service')
      .map((v) => v.id),
  );
  expect(variants.every((v) => v.allowed_by.length > 0)).toBe(true);
  // --suite narrows them to the switches its cases judge.
  const social = await listedJson<{ id: string }>(['variants', '--suite', 'social-accounts']);
  expect(social.length).toBeGreaterThan(0);
  expect(social.length).toBeLessThan(variants.length);
});

test('a missing list is named with the choices; a mistyped kind, suite or --kind gets a did-you-mean; a selection of nothing and roles of a plugin are usage errors', async () => {
  const refusals: [string[], string][] = [
    [[], 'name what to list: suites, cases, roles, requirements, faults, variants'],
    [['cses'], 'unknown list kind cses (did you mean cases?); known: suites, cases, roles, requirements, faults, variants'],
    [['cases', '--suite', 'asignees'], 'unknown suite asignees (did you mean assignees?); known: artifacts,'],
    [['cases', '--kind', 'plugn'], 'unknown --kind plugn (did you mean plugin?); known: service, plugin, compiler'],
    [['cases', '--kind', 'plugin', '--suite', 'fils'], 'unknown suite fils (did you mean files?); known: files, io'],
    [['cases', '--grep', 'zzzz-no-such-case'], '--grep zzzz-no-such-case matches no case'],
    [['roles', '--kind', 'compiler'], 'roles are those of the service world: compiler cases act as none'],
  ];
  for (const [args, message] of refusals) {
    const result = await runCli(['list', ...args]);
    expect(result.code, args.join(' ')).toBe(2);
    expect(result.stderr, args.join(' ')).toContain(message);
    expect(result.stdout).toBe('');
  }
});

test('list --help names the kinds, the filters and --json, with examples', async () => {
  const help = await runCli(['list', '--help']);
  expect(help.code).toBe(0);
  for (const word of [
    'suites',
    'cases',
    'roles',
    'requirements',
    'faults',
    'variants',
    '--kind',
    '--suite',
    '--only',
    '--grep',
    '--grep-invert',
    '--json',
    'Examples:',
  ])
    expect(help.stdout).toContain(word);
});
