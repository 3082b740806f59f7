// Resource schemas by name: NAME and NAME[], readable problems, references across files, and the $id rule.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { HarnessError } from '../core/errors.js';
import { suitePaths } from '../core/suite-paths.js';
import { loadSchemaRegistry, SCHEMA_BASE_URI } from './schema-registry.js';

const DRAFT = 'https://json-schema.org/draft/2020-12/schema';

/** A temporary schemas folder holding these files (name → schema), removed after `use`. */
function withSchemas<T>(files: Record<string, object>, use: (dir: string) => T): T {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-schemas-'));
  try {
    for (const [file, schema] of Object.entries(files)) writeFileSync(path.join(dir, file), JSON.stringify(schema));
    return use(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const label = {
  $schema: DRAFT,
  $id: `${SCHEMA_BASE_URI}label.json`,
  type: 'object',
  required: ['name', 'color'],
  properties: { name: { type: 'string', minLength: 1 }, color: { type: 'string', pattern: '^[0-9a-f]{6}$' } },
};
const issue = {
  $schema: DRAFT,
  $id: `${SCHEMA_BASE_URI}issue.json`,
  type: 'object',
  required: ['number', 'labels'],
  properties: { number: { type: 'integer' }, labels: { type: 'array', items: { $ref: 'label.json' } } },
};

test('a name is known with or without [] when its file is there, and unknown when it is not', () => {
  withSchemas({ 'label.json': label, 'issue.json': issue, 'notes.txt': { $id: 'ignored' } }, (dir) => {
    const registry = loadSchemaRegistry(dir);
    expect(registry.has('label')).toBe(true);
    expect(registry.has('label[]')).toBe(true);
    expect(registry.has('issue')).toBe(true);
    expect(registry.has('milestone')).toBe(false);
    expect(registry.has('milestone[]')).toBe(false);
    expect(registry.has('notes')).toBe(false);
  });
});

test('a valid value passes; an invalid one gets a readable problem naming the path that is wrong', () => {
  withSchemas({ 'label.json': label }, (dir) => {
    const registry = loadSchemaRegistry(dir);
    expect(registry.check('label', { name: 'bug', color: 'ff0000' })).toBeUndefined();
    const problem = registry.check('label', { name: 'bug', color: 'red' });
    expect(problem).toContain('/color');
    expect(problem).toMatch(/pattern/);
    expect(registry.check('label', { name: 'bug' })).toMatch(/required property 'color'/);
  });
});

test('NAME[] checks an array of them: every item valid passes, a bad item or a non-array fails', () => {
  withSchemas({ 'label.json': label }, (dir) => {
    const registry = loadSchemaRegistry(dir);
    expect(registry.check('label[]', [])).toBeUndefined();
    expect(
      registry.check('label[]', [
        { name: 'a', color: '000000' },
        { name: 'b', color: 'ffffff' },
      ]),
    ).toBeUndefined();
    expect(
      registry.check('label[]', [
        { name: 'a', color: '000000' },
        { name: '', color: 'ffffff' },
      ]),
    ).toContain('/1/name');
    expect(registry.check('label[]', { name: 'a', color: '000000' })).toMatch(/must be array/);
    // The single name still wants one object, not an array.
    expect(registry.check('label', [{ name: 'a', color: '000000' }])).toMatch(/must be object/);
  });
});

test('"$ref": "other.json" reaches the schema in the other file', () => {
  withSchemas({ 'label.json': label, 'issue.json': issue }, (dir) => {
    const registry = loadSchemaRegistry(dir);
    expect(registry.check('issue', { number: 1, labels: [{ name: 'bug', color: 'abcdef' }] })).toBeUndefined();
    expect(registry.check('issue', { number: 1, labels: [{ name: 'bug', color: 'nope' }] })).toContain('/labels/0/color');
  });
});

test('a file whose $id is not the base URI plus its file name is refused, naming the file and the $id it must have', () => {
  withSchemas({ 'label.json': label, 'issue.json': { ...issue, $id: `${SCHEMA_BASE_URI}issues.json` } }, (dir) => {
    let thrown: unknown;
    try {
      loadSchemaRegistry(dir);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(HarnessError);
    expect((thrown as HarnessError).code).toBe('CONFIG');
    expect((thrown as HarnessError).message).toBe(`issue.json: $id must be ${SCHEMA_BASE_URI}issue.json`);
  });
  withSchemas({ 'label.json': { ...label, $id: undefined } }, (dir) => {
    expect(() => loadSchemaRegistry(dir)).toThrow(`label.json: $id must be ${SCHEMA_BASE_URI}label.json`);
  });
});

test("the suites' own schemas load, and user is one of them", () => {
  const registry = loadSchemaRegistry(suitePaths.schemas);
  expect(registry.has('user')).toBe(true);
  expect(registry.has('user[]')).toBe(true);
  expect(registry.check('user', {})).toMatch(/required property 'login'/);
});
