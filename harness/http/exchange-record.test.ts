// What reports carry of an exchange: no secret anywhere, and a curl command a shell reads back
// exactly as recorded (checked by handing it to bash with curl replaced by printf).
import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { createRedactor, showingTarget, toCurl, toExchangeRecord } from './exchange-record.js';

const SECRET = 'ts_classic_secret_0001';
const redact = createRedactor([SECRET, 'ts_classic_secret', '']);

test('every known secret is replaced by $TOKEN in the URL, headers and both bodies, longest first', () => {
  const record = toExchangeRecord(
    {
      method: 'POST',
      url: `http://127.0.0.1:1/x?access_token=${SECRET}`,
      headers: [['authorization', `Bearer ${SECRET}`]],
      body: Buffer.from(`{"token":"${SECRET}"}`),
    },
    { status: 200, headers: [['x-echo', SECRET]], body: Buffer.from(`you sent ${SECRET}`) },
    redact,
  );
  expect(JSON.stringify(record)).not.toContain('ts_classic_secret');
  expect(record).toEqual({
    request: {
      method: 'POST',
      url: 'http://127.0.0.1:1/x?access_token=$TOKEN',
      headers: [['authorization', 'Bearer $TOKEN']],
      body: '{"token":"$TOKEN"}',
    },
    response: { status: 200, headers: [['x-echo', '$TOKEN']], body: 'you sent $TOKEN' },
  });
});

test('secret JSON fields of a request body (a sealed value, an import password) are <redacted>, a known token stays $TOKEN', () => {
  const body = { encrypted_value: 'c2VhbGVk', nested: [{ vcs_password: 'hunter2' }], token: SECRET, name: 'API_TOKEN' };
  const record = toExchangeRecord(
    { method: 'PUT', url: 'http://127.0.0.1:1/s', headers: [], body: Buffer.from(JSON.stringify(body)) },
    undefined,
    redact,
  );
  expect(JSON.parse(record.request.body!)).toEqual({
    encrypted_value: '<redacted>',
    nested: [{ vcs_password: '<redacted>' }],
    token: '$TOKEN',
    name: 'API_TOKEN',
  });
});

test('a large body is cut at 256 KiB with the number of bytes left out', () => {
  const record = toExchangeRecord(
    { method: 'GET', url: 'http://h/', headers: [] },
    { status: 200, headers: [], body: Buffer.alloc(256 * 1024 + 10, 0x61) },
    redact,
  );
  expect(record.response?.body).toMatch(/^a{262144}\n… \(10 more bytes\)$/);
});

/** The arguments bash passes to curl for the command, with $TOKEN set as a user would. */
function shellArguments(command: string): string[] {
  const printed = execFileSync('bash', ['-c', command.replace(/^curl /, "printf '%s\\0' ")], {
    env: { TOKEN: 'the-token', HOME: '/home/u' },
    encoding: 'utf8',
  });
  return printed.split('\0').slice(0, -1);
}

test('the curl command reproduces the request: headers, body and URL reach curl as recorded, $TOKEN expanded and nothing else', () => {
  const command = toCurl({
    method: 'PUT',
    url: "http://127.0.0.1:1/a?q=it's",
    headers: [
      ['authorization', 'Bearer $TOKEN'],
      ['x-odd', 'a"b`c\\d $HOME $TOKEN'],
      ['x-plain', "it's $HOME"],
      ['content-length', '9'],
    ],
    body: `{"a":"it's $HOME"}`,
  });
  expect(shellArguments(command)).toEqual([
    '-sS',
    '-i',
    '-X',
    'PUT',
    "http://127.0.0.1:1/a?q=it's",
    '-H',
    'authorization: Bearer the-token',
    '-H',
    'x-odd: a"b`c\\d $HOME the-token',
    '-H',
    "x-plain: it's $HOME",
    '-H',
    'User-Agent:',
    '-H',
    'Accept:',
    '--data-binary',
    `{"a":"it's $HOME"}`,
  ]);
});

test('behind a record/replay proxy the exchange and its curl name the target it stands for, never the passing port', () => {
  const shown = showingTarget(redact, 'http://127.0.0.1:4321', 'http://target.invalid');
  const record = toExchangeRecord(
    {
      method: 'GET',
      url: `http://127.0.0.1:4321/repos/o/r?token=${SECRET}`,
      headers: [['Authorization', `Bearer ${SECRET}`]],
    },
    // A longer port that starts with the proxy's is another server: it stays as it is.
    { status: 302, headers: [['Location', 'http://127.0.0.1:4321/next']], body: Buffer.from('see http://127.0.0.1:43210/x') },
    shown,
  );
  expect(record.request.url).toBe('http://target.invalid/repos/o/r?token=$TOKEN');
  expect(record.response?.headers).toEqual([['Location', 'http://target.invalid/next']]);
  expect(record.response?.body).toBe('see http://127.0.0.1:43210/x');
  expect(toCurl(record.request)).toContain(" 'http://target.invalid/repos/o/r?token=$TOKEN'");
  expect(showingTarget(redact, 'http://127.0.0.1:4321', 'http://127.0.0.1:4321')).toBe(redact);
});
