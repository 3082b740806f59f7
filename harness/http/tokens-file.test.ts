// The --tokens file: role -> token, values from the environment, and a clear error for anything else.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { HarnessError } from '../core/errors.js';
import { createAjv, parseDataText } from '../core/validated-file.js';
import { projectPath } from '../../lib/project-files.js';
import { readSecretsFile, readTokensFile, tokensSchemaFile } from './tokens-file.js';

function file(text: string, name = 'tokens.yaml'): string {
  const full = path.join(mkdtempSync(path.join(os.tmpdir(), 'touchstone-tokens-')), name);
  writeFileSync(full, text);
  return full;
}

const ROLES = ['repo-admin', 'reader'];

test('roles map to tokens; ${NAME} reads the environment; JSON works too', () => {
  expect(readTokensFile(file('repo-admin: ${ADMIN}\nreader: tok_reader_1\n'), ROLES, { ADMIN: 'tok_admin_1' })).toEqual({
    'repo-admin': 'tok_admin_1',
    reader: 'tok_reader_1',
  });
  expect(readTokensFile(file('{"reader": "tok"}', 'tokens.json'), ROLES, {})).toEqual({ reader: 'tok' });
});

test('every bad file is a configuration error naming the file and the problem', () => {
  const refused = (text: string, env: NodeJS.ProcessEnv = {}) => {
    try {
      readTokensFile(file(text), ROLES, env);
    } catch (error) {
      expect(error).toBeInstanceOf(HarnessError);
      return (error as Error).message;
    }
    throw new Error('accepted');
  };
  expect(refused('- a\n- b\n')).toMatch(/tokens\.yaml: expected a map of name: value$/);
  expect(refused('Repo Admin: x\n')).toMatch(/Repo Admin is not a name/);
  expect(refused('reader: 12\n')).toMatch(/the value of reader must be a non-empty string/);
  expect(refused('reader: ""\n')).toMatch(/the value of reader must be a non-empty string/);
  expect(refused('reader: ${MISSING}\n')).toMatch(/reader reads \$\{MISSING\}, which is not set/);
  expect(refused('anonymous: x\n')).toMatch(/anonymous is not a role name/);
  expect(refused('reader: [unclosed\n')).toMatch(/tokens\.yaml:\d+:\d+: not valid YAML/);
  expect(refused('repo-admn: x\n')).toMatch(/^unknown role repo-admn in .*tokens\.yaml: did you mean repo-admin\?$/);
  expect(refused('reader: x\ndeploy-key: y\n')).toMatch(
    /unknown role deploy-key in .*tokens\.yaml: the world has no such role \(touchstone tokens template lists them\)/,
  );
  expect(refused('reader: a\nreader: b\n')).toMatch(/tokens\.yaml:2:1: not valid YAML: Map keys must be unique/);
});

test('a file with several problems names each of them, at most five, and how many more there are', () => {
  const message = (text: string) => {
    try {
      readSecretsFile(file(text), '--secrets', {});
    } catch (error) {
      expect(error).toBeInstanceOf(HarnessError);
      return (error as Error).message;
    }
    throw new Error('accepted');
  };
  expect(message('Repo Admin: x\nreader: 12\nwriter: ""\nok: fine\n')).toMatch(
    /tokens\.yaml: Repo Admin is not a name \(lower case letters, digits, -\); the value of reader must be a non-empty string; the value of writer must be a non-empty string$/,
  );
  expect(message('"": x\n')).toMatch(/tokens\.yaml: an empty key is not a name/);
  expect(message('a: 1\nb: 2\nc: 3\nd: 4\ne: 5\nf: 6\ng: 7\n')).toMatch(/the value of e must be a non-empty string \(and 2 more\)$/);
  expect(message('')).toMatch(/tokens\.yaml: expected a map of name: value$/);
  // Negative control: the names and values the schema takes, read as they are.
  expect(readSecretsFile(file('a: 1x\nsession-cookie-2: "${lower}"\n'), '--secrets', { lower: 'from-env' })).toEqual({
    a: '1x',
    'session-cookie-2': 'from-env',
  });
});

test('the example tokens file passes the schema editors are pointed at (tokens.schema.json)', () => {
  const validate = createAjv().compile(JSON.parse(readFileSync(projectPath(tokensSchemaFile.path), 'utf8')));
  expect(validate(parseDataText(readFileSync(projectPath('examples/target-node/tokens.yaml'), 'utf8'), 'tokens.yaml'))).toBe(true);
  expect(validate({ 'Repo-Admin': 'x' })).toBe(false);
  expect(validate({ reader: '' })).toBe(false);
});

test('a missing file is a usage error naming the flag', () => {
  expect(() => readTokensFile('/nonexistent/tokens.yaml', ROLES)).toThrow(/--tokens \/nonexistent\/tokens\.yaml: ENOENT/);
});
