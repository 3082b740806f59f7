import { expect, test } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HarnessError } from '../core/errors.js';
import { loadRequirementRegistry } from '../suite/requirement-registry.js';
import type { Requirement } from '../core/suite-format.js';
import { suitePaths } from '../core/suite-paths.js';
import { allCases, lintFaultCoverage } from './fault-coverage.js';
import { loadFaultRegistry, type Fault } from './fault-registry.js';

test('every MUST requirement of the registry has a case and a built-in fault a case citing it can catch; every fault has such a case', () => {
  const registry = loadRequirementRegistry(suitePaths.requirements);
  const faults = loadFaultRegistry(suitePaths.faults, registry);
  expect(lintFaultCoverage(registry.values(), faults, allCases(registry))).toEqual([]);
  // Every side has faults: the lint is not passing for want of data.
  expect(new Set(faults.map((f) => f.side))).toEqual(new Set(['service', 'plugin', 'compiler']));
});

const must = (id: string): Requirement => ({ id, source: 's', quote: 'q', level: 'MUST' });
const fault = (id: string, breaks: string[]): Fault => ({ id, does: 'does', breaks, side: 'service', file: 'f.yaml' });

test('the lint names a MUST without a case, a MUST without a fault, and a fault nothing can catch', () => {
  const problems = lintFaultCoverage(
    [must('r.no-case'), must('r.no-fault'), must('r.fine'), { ...must('r.may'), level: 'MAY' }],
    [fault('f.fine', ['r.fine']), fault('f.orphan', ['r.no-case'])],
    [{ id: 's/a', requirements: ['r.no-fault', 'r.fine'] }],
  );
  expect(problems).toEqual([
    'fault f.orphan: no case cites r.no-case, so nothing can catch it',
    'MUST requirement r.no-case: no case cites it',
    'MUST requirement r.no-fault: no built-in fault breaks it (add one to suites/faults and the reference)',
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
      'the fault registry does not pass the lint:\n  x.yaml fault f.dup: defined twice\n  x.yaml fault f.dup: unknown requirement a.nope\n  x.yaml fault f.both: breaks requirements of the service and plugin at once; a fault is switched on in one of them',
    ),
  );
});
