// The proxy's --config file is read against its generated schema: a good file gives its
// rules, a bad one a clear error naming the file and the field.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { readProxyConfig } from './proxy-config.js';

function configFile(text: string): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'proxy-config-')), 'proxy.yaml');
  writeFileSync(file, text);
  return file;
}

test('a config file gives its match and redaction rules', () => {
  const file = configFile('match:\n  ignoreQuery: [ts]\n  queryOrder: exact\nredaction:\n  jsonPaths: [$.token]\n');
  expect(readProxyConfig(file)).toEqual({ match: { ignoreQuery: ['ts'], queryOrder: 'exact' }, redaction: { jsonPaths: ['$.token'] } });
});

test('a config file with a secret, an unknown field or a header that is not lower case is refused, naming the line and field', () => {
  expect(() => readProxyConfig(configFile('redaction:\n  secrets: {a: b}\n'))).toThrow(
    'proxy.yaml: invalid: line 2:3: /redaction must NOT have additional properties (secrets)',
  );
  expect(() => readProxyConfig(configFile('match:\n  headers: [Accept]\n'))).toThrow(
    /proxy\.yaml: invalid: line 2:\d+: \/match\/headers\/0 must match pattern/,
  );
  expect(() => readProxyConfig(configFile('match:\n  queryOrder: sorted\n'))).toThrow(
    /\/match\/queryOrder must be equal to one of the allowed values/,
  );
});
