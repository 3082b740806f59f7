// The plugin as a process, the way a compiler runs it: bin/protoc-gen-touchstone.js with the
// request on stdin, the response on stdout, and the exit status.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { createPluginCodec } from './plugin-codec.js';
import { demoRequest, field, message } from './test-requests.js';

const BIN = fileURLToPath(new URL('../../bin/protoc-gen-touchstone.js', import.meta.url));
const codec = createPluginCodec();

interface Run {
  status: number | null;
  stdout: Buffer;
  stderr: string;
}

function runPlugin(stdin: Uint8Array | string, args: string[] = []): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(BIN, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr).toString('utf8') }));
    child.stdin.on('error', () => {}); // a plugin that exits early must not fail the test with EPIPE
    child.stdin.end(stdin);
  });
}

test('a request on stdin gives the response on stdout, exit 0', async () => {
  const run = await runPlugin(codec.encodeRequest(demoRequest()));
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  const response = codec.decodeResponse(run.stdout);
  expect(response.error).toBeUndefined();
  expect(response.supported_features).toBe(1);
  expect(response.file.map((file) => file.name)).toEqual(['demo/foo.md', 'demo/foo.d.ts']);
});

test('empty stdin is an empty request: exit 0, a response with no files and no error', async () => {
  const run = await runPlugin(Buffer.alloc(0));
  expect(run.status).toBe(0);
  expect(run.stderr).toBe('');
  expect(codec.decodeResponse(run.stdout)).toEqual({ supported_features: 1, file: [] });
});

test('garbage or a truncated request: a message on stderr, nothing on stdout, non-zero exit', async () => {
  const whole = codec.encodeRequest(demoRequest());
  for (const input of [Buffer.from('this is not a protobuf'), whole.subarray(0, whole.length - 7), Buffer.from([0x0a, 0xff])]) {
    const run = await runPlugin(input);
    expect(run.status).toBe(1);
    expect(run.stdout.length).toBe(0);
    expect(run.stderr).toMatch(/^protoc-gen-touchstone: standard input is not a CodeGeneratorRequest \(\d+ bytes\): .+\n$/);
  }
});

test('unknown fields (source_file_descriptors = 17 of newer compilers, anything else) are ignored', async () => {
  const plain = codec.encodeRequest(demoRequest());
  // field 17, length-delimited, an (empty-named) FileDescriptorProto; field 99, varint 1;
  // field 4, fixed32: none of them is in the spec's CodeGeneratorRequest.
  const extra = Buffer.from([0x8a, 0x01, 0x02, 0x0a, 0x00, 0x98, 0x06, 0x01, 0x25, 1, 2, 3, 4]);
  const [withExtra, without] = await Promise.all([runPlugin(Buffer.concat([plain, extra])), runPlugin(plain)]);
  expect(withExtra.status).toBe(0);
  expect(withExtra.stdout.equals(without.stdout)).toBe(true);
});

test('a bad parameter is a response error with exit 0, naming the option', async () => {
  const run = await runPlugin(codec.encodeRequest(demoRequest('format=pdf')));
  expect(run.status).toBe(0);
  expect(codec.decodeResponse(run.stdout)).toEqual({
    error: 'option "format" must be md, ts or both, got "pdf"',
    supported_features: 1,
    file: [],
  });
});

test('deterministic across processes, and large requests and responses go through the pipes whole', async () => {
  const request = demoRequest('chunk=1000');
  const fields = Array.from({ length: 3000 }, (_, index) => field(`field_number_${index}`, index + 1, 'TYPE_STRING'));
  request.proto_file!.at(-1)!.message_type!.push(message('Huge', fields));
  const bytes = codec.encodeRequest(request);
  expect(bytes.length).toBeGreaterThan(65536);
  const [first, second] = await Promise.all([runPlugin(bytes), runPlugin(bytes)]);
  expect(first.status).toBe(0);
  expect(first.stdout.length).toBeGreaterThan(200_000);
  expect(second.stdout.equals(first.stdout)).toBe(true);
  const response = codec.decodeResponse(first.stdout);
  expect(response.file.filter((file) => file.name !== undefined).map((file) => file.name)).toEqual(['demo/foo.md', 'demo/foo.d.ts']);
});

test('arguments are refused with usage (exit 2); --help prints it (exit 0)', async () => {
  const wrong = await runPlugin('', ['--touchstone_out=x']);
  expect(wrong.status).toBe(2);
  expect(wrong.stderr).toContain('usage: protoc --plugin=protoc-gen-touchstone=PATH');
  const help = await runPlugin('', ['--help']);
  expect(help.status).toBe(0);
  expect(help.stdout.toString()).toContain('format=md|ts|both');
});

test('--fault NAME and --fault=NAME switch built-in faults on; an unknown fault is refused with the list (exit 2)', async () => {
  const request = codec.encodeRequest(demoRequest());
  const [texted, garbage, unknown] = await Promise.all([
    runPlugin(request, ['--fault', 'plugin.text-before-response']),
    runPlugin('not a request', ['--fault=plugin.garbage-exit-zero']),
    runPlugin(request, ['--fault=plugin.no-such-fault']),
  ]);
  expect(texted.status).toBe(0);
  expect(texted.stdout.toString('latin1')).toMatch(/^protoc-gen-touchstone: generating\n/);
  expect(garbage.status).toBe(0);
  expect(garbage.stderr).toBe('');
  expect(codec.decodeResponse(garbage.stdout)).toEqual({ file: [] });
  expect(unknown.status).toBe(2);
  expect(unknown.stderr).toMatch(/unknown fault "plugin\.no-such-fault"; faults: plugin\.text-before-response, /);
});

test('--variant=plugin.field-order-relied-on takes proto_file before the other fields for a compiler problem; off, any order is read', async () => {
  const request = demoRequest();
  const protoFileFirst = Buffer.concat([
    codec.encodeRequest({ proto_file: request.proto_file }),
    codec.encodeRequest({ ...request, proto_file: [] }),
  ]);
  const runs = await Promise.all([
    runPlugin(protoFileFirst, ['--variant=plugin.field-order-relied-on']),
    runPlugin(codec.encodeRequest(request), ['--variant', 'plugin.field-order-relied-on']),
    runPlugin(protoFileFirst),
    runPlugin(protoFileFirst, ['--variant=plugin.no-such-variation']),
  ]);
  expect(runs.map((run) => run.status)).toEqual([1, 0, 0, 2]);
  expect(runs[0].stderr).toContain('field 1 after proto_file (15)');
  expect(runs[0].stdout.length).toBe(0);
  expect(codec.decodeResponse(runs[2].stdout).file.map((file) => file.name)).toEqual(['demo/foo.md', 'demo/foo.d.ts']);
  expect(runs[3].stderr).toMatch(/unknown variation "plugin\.no-such-variation"; variations: plugin\.field-order-relied-on, /);
});

test('--variant=plugin.unknown-option-on-stderr: an unknown option is a message on stderr and exit 1, as protoc-gen-es does', async () => {
  const request = codec.encodeRequest(demoRequest('colour=red'));
  const [varied, plain] = await Promise.all([runPlugin(request, ['--variant=plugin.unknown-option-on-stderr']), runPlugin(request)]);
  expect(varied.status).toBe(1);
  expect(varied.stderr).toContain('unknown option "colour"');
  expect(plain.status).toBe(0);
  expect(codec.decodeResponse(plain.stdout).error).toContain('unknown option "colour"');
});

test('request switches: unknown fields (a fault) and an empty request (a variation) are refused as unparseable', async () => {
  const plain = codec.encodeRequest(demoRequest());
  const extra = Buffer.from([0x98, 0x06, 0x01]); // field 99, varint 1
  const runs = await Promise.all([
    runPlugin(Buffer.concat([plain, extra]), ['--fault=plugin.unknown-fields-refused']),
    runPlugin(plain, ['--fault=plugin.unknown-fields-refused']),
    runPlugin(Buffer.alloc(0), ['--variant=plugin.empty-request-refused']),
  ]);
  expect(runs.map((run) => run.status)).toEqual([1, 0, 1]);
  expect(runs[0].stderr).toContain('unknown field 99');
});
