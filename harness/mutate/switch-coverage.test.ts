import { expect, test } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HarnessError } from '../core/errors.js';
import { loadRequirementRegistry } from '../core/requirement-registry.js';
import type { Requirement } from '../core/suite-format.js';
import { suitePaths } from '../core/suite-paths.js';
import { allCases, lintSwitchCoverage } from './switch-coverage.js';
import { loadFaultRegistry, loadVariantRegistry, type Fault, type Variant } from './switch-registry.js';

test('every MUST requirement has a case and a fault a case citing it can catch; every choice a case checks has a variation; every area and side has one', () => {
  const registry = loadRequirementRegistry(suitePaths.requirements);
  const faults = loadFaultRegistry(suitePaths.faults, registry);
  const variants = loadVariantRegistry(suitePaths.variants, registry);
  expect(lintSwitchCoverage(registry.values(), faults, variants, allCases(registry))).toEqual([]);
  // Every side has faults and variations: the lint is not passing for want of data.
  expect(new Set(faults.map((f) => f.side))).toEqual(new Set(['service', 'plugin', 'compiler']));
  expect(new Set(variants.map((v) => v.side))).toEqual(new Set(['service', 'plugin', 'compiler']));
});

const must = (id: string): Requirement => ({ id, source: 's', quote: 'q', level: 'MUST', basis: 'quoted' });
const fault = (id: string, breaks: string[]): Fault => ({ id, does: 'does', breaks, side: 'service', file: 'f.yaml' });
const variant = (id: string, requirements: string[]): Variant => ({
  id,
  does: 'does',
  allowed_by: 'silence',
  requirements,
  side: 'service',
  file: 'v.yaml',
});
const choice = (id: string): Requirement => ({ id, source: 's', quote: 'q', level: 'MAY', basis: 'choice', note: 'the reference picks' });

test('the lint names a MUST without a case or fault, a fault nothing can catch or that breaks only choices, a choice without a variation, an area without one', () => {
  const problems = lintSwitchCoverage(
    [must('r.no-case'), must('r.no-fault'), must('r.fine'), { ...must('r.may'), level: 'MAY' }, choice('r.open'), choice('r.varied')],
    [fault('f.fine', ['r.fine']), fault('f.orphan', ['r.no-case']), fault('f.only-a-choice', ['r.varied'])],
    [variant('v.fine', ['r.varied']), variant('v.orphan', ['r.nobody'])],
    [
      { id: 's/a', suite: 's', requirements: ['r.no-fault', 'r.fine', 'r.open', 'r.varied'] },
      { id: 't/b', suite: 't', requirements: ['r.fine'] },
    ],
  );
  expect(problems).toEqual([
    'fault f.orphan: no case cites r.no-case, so nothing can catch it',
    'fault f.only-a-choice: breaks only choices (r.varied), which the spec leaves open: make it a variation',
    'variation v.orphan: no case cites r.nobody, so no case runs with it',
    'MUST requirement r.no-case: no case cites it',
    'MUST requirement r.no-fault: no built-in fault breaks it (add one to suites/faults and the reference)',
    "choice r.open: cases check the reference's reading, and no variation reads it otherwise (add one to suites/variants and the reference)",
    't: no built-in variation runs its cases (every area and protocol side needs one)',
  ]);
});

test('the fault registry refuses duplicate ids, unknown requirements and faults spanning two sides', () => {
  const registry = new Map([must('a.one'), must('plugin.two')].map((r) => [r.id, r]));
  const dir = test.info().outputPath('faults');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'x.yaml'),
    '- { id: f.dup, does: does something, breaks: [a.one] }\n- { id: f.dup, does: does something, breaks: [a.nope] }\n- { id: f.both, does: does something, breaks: [a.one, plugin.two] }\n',
  );
  expect(() => loadFaultRegistry(dir, registry)).toThrow(
    new HarnessError(
      'CONFIG',
      'the fault registry does not pass the lint:\n  x.yaml fault f.dup: defined twice\n  x.yaml fault f.dup: unknown requirement a.nope\n  x.yaml fault f.both: names requirements of the service and plugin at once; a fault is switched on in one of them',
    ),
  );
});
