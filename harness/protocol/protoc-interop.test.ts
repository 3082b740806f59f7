// The codec against the real thing: requests captured from Debian's protoc with a canned
// plugin, responses of ours that protoc must apply, malformed outputs protoc must refuse,
// and descriptor sets written by `protoc -o`.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { runDebianProtoc, skipWithoutDebianProtoc } from '../../test-support/debian-protoc.js';
import { readDescriptorSet } from './descriptor-set.js';
import { readableResponse } from './readable-form.js';
import { MALFORMED_RESPONSES, UNUSUAL_VALID_RESPONSES } from './wire-edge-cases.js';
import {
  decodeRequest,
  decodeResponse,
  encodeRequest,
  encodeResponse,
  Feature,
  unknownLengthDelimited,
  unknownVarint,
} from './plugin-codec.js';
import { concatBytes, lengthDelimitedField, walkFields } from './wire-format.js';

skipWithoutDebianProtoc(test);

const PROTOS = {
  'dep.proto': 'syntax = "proto3";\npackage demo.dep;\nmessage Dep { string id = 1; }\n',
  // proto3 `optional` makes protoc 3.21 require FEATURE_PROTO3_OPTIONAL from the plugin.
  'main.proto':
    'syntax = "proto3";\npackage demo;\nimport "dep.proto";\nmessage Main { demo.dep.Dep dep = 1; optional int32 count = 2; }\n',
  'extra.proto': 'syntax = "proto3";\npackage demo.extra;\nmessage Extra { bool on = 1; }\n',
};

interface Workspace {
  dir: string;
  /** Runs protoc with the canned plugin answering `response`; gives protoc's result and the request it sent. */
  generate(args: string[], response: Uint8Array): { status: number | null; stderr: string; request: Buffer };
}

function createWorkspace(): Workspace {
  const dir = mkdtempSync(join(tmpdir(), 'touchstone-protoc-'));
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, 'out'));
  for (const [name, text] of Object.entries(PROTOS)) writeFileSync(join(dir, 'src', name), text);
  // The canned plugin: saves its stdin, prints the response the test prepared.
  const plugin = join(dir, 'protoc-gen-canned');
  writeFileSync(plugin, '#!/bin/sh\ncat > "$CANNED_REQUEST"\ncat "$CANNED_RESPONSE"\n');
  chmodSync(plugin, 0o755);
  return {
    dir,
    generate(args, response) {
      const requestPath = join(dir, 'request.bin');
      const responsePath = join(dir, 'response.bin');
      writeFileSync(responsePath, response);
      rmSync(requestPath, { force: true });
      const run = runDebianProtoc([`--plugin=protoc-gen-canned=${plugin}`, '-Isrc', ...args], {
        cwd: dir,
        env: { CANNED_REQUEST: requestPath, CANNED_RESPONSE: responsePath },
      });
      return { status: run.status, stderr: run.stderr, request: readFileSync(requestPath) };
    },
  };
}

let workspace: Workspace;
test.beforeAll(() => {
  workspace = createWorkspace();
});
test.afterAll(() => {
  if (workspace) rmSync(workspace.dir, { recursive: true, force: true });
});

const PROTO3_OPTIONAL_OK = encodeResponse({ supported_features: Feature.PROTO3_OPTIONAL });

test('a request captured from protoc decodes right and re-encodes byte for byte', () => {
  const run = workspace.generate(['--canned_out=a=b,c:out', 'main.proto', 'extra.proto'], PROTO3_OPTIONAL_OK);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  const request = decodeRequest(run.request);
  expect(Buffer.from(encodeRequest(request)).equals(run.request)).toBe(true);

  expect(request.file_to_generate).toEqual(['main.proto', 'extra.proto']); // command-line order
  expect(request.parameter).toBe('a=b,c');
  // `protoc --version` prints "libprotoc 3.21.12" (newer releases: "libprotoc 25.1", while
  // compiler_version says 5.25.1), so compare minor.patch only.
  const version = request.compiler_version!;
  expect(runDebianProtoc(['--version'], { cwd: workspace.dir }).stdout).toContain(
    ` ${version.major === 3 ? '3.' : ''}${version.minor}.${version.patch}`,
  );
  expect(version).toMatchObject({ suffix: '', unknown_fields: [] });
  // Imports first: each file after the files it imports.
  expect(request.proto_file.map((file) => file.name)).toEqual(['dep.proto', 'main.proto', 'extra.proto']);
  expect(request.proto_file[1].dependency).toEqual(['dep.proto']);
  const main = request.proto_file[1].descriptor() as {
    message_type: { field: { name: string; proto3_optional?: boolean; json_name?: string }[] }[];
  };
  expect(main.message_type[0].field.find((field) => field.name === 'count')).toMatchObject({ proto3_optional: true, json_name: 'count' });
});

test('a request built from scratch is the bytes protoc writes', () => {
  const captured = workspace.generate(['--canned_out=p:out', 'main.proto'], PROTO3_OPTIONAL_OK).request;
  const decoded = decodeRequest(captured);
  // protoc writes fields in number order: 1, 2, 3, then every proto_file (15).
  expect(walkFields(captured, 0, captured.length, 'request').map((field) => field.field)).toEqual([1, 2, 3, 15, 15]);
  const { major, minor, patch, suffix } = decoded.compiler_version!;
  const rebuilt = encodeRequest({
    file_to_generate: [...decoded.file_to_generate],
    parameter: decoded.parameter,
    proto_file: [...decoded.proto_file],
    compiler_version: { major, minor, patch, suffix },
  });
  expect(Buffer.from(rebuilt).equals(captured)).toBe(true);
});

test('protoc accepts empty plugin output, which decodes as an empty response', () => {
  const run = workspace.generate(['--canned_out=out', 'extra.proto'], new Uint8Array());
  expect(run.status).toBe(0);
  expect(decodeResponse(new Uint8Array())).toEqual({ file: [], unknown_fields: [] });
});

test('protoc applies a response we encode: raw content bytes, chunks, unknown fields', () => {
  const firstChunk = Uint8Array.of(0x41, 0xff, 0xfe, 0x0a); // not UTF-8: protoc logs it and writes the bytes
  const response = encodeResponse({
    supported_features: Feature.PROTO3_OPTIONAL,
    file: [{ name: 'gen/a.bin', content: firstChunk, unknown_fields: [unknownVarint(99, 1)] }, { content: 'continued\n' }],
    unknown_fields: [unknownLengthDelimited(17, 'from a newer plugin'), unknownVarint(3, 998)],
  });
  const run = workspace.generate(['--canned_out=out', 'main.proto'], response);
  expect(run.status, run.stderr).toBe(0);
  const written = readFileSync(join(workspace.dir, 'out', 'gen', 'a.bin'));
  expect(written.equals(Buffer.concat([firstChunk, Buffer.from('continued\n')]))).toBe(true);
});

test('protoc refuses every output our decoder calls malformed', () => {
  for (const malformed of MALFORMED_RESPONSES) {
    const run = workspace.generate(['--canned_out=out', 'extra.proto'], malformed.bytes);
    expect(run.status, malformed.title).toBe(1);
    expect(run.stderr, malformed.title).toContain('Plugin output is unparseable');
  }
});

test('protoc reads every unusual but valid output as our decoder does', () => {
  for (const unusual of UNUSUAL_VALID_RESPONSES) {
    const run = workspace.generate(['--canned_out=out', 'extra.proto'], unusual.bytes);
    expect(run.stderr, unusual.title).not.toContain('unparseable');
    const { error } = readableResponse(decodeResponse(unusual.bytes));
    // A response with an error fails the run with exactly that text, so protoc saw the same value.
    if (error === undefined) expect(run.status, `${unusual.title}: ${run.stderr}`).toBe(0);
    else expect(run.stderr, unusual.title).toBe(`--canned_out: ${String(error)}\n`);
  }
});

test('a descriptor set from protoc -o reads into its files, imports first, bytes exact', () => {
  const setPath = join(workspace.dir, 'set.bin');
  const run = runDebianProtoc(['-Isrc', '--include_imports', `-o${setPath}`, 'main.proto', 'extra.proto'], { cwd: workspace.dir });
  expect(run.status, run.stderr).toBe(0);
  const bytes = readFileSync(setPath);
  const files = readDescriptorSet(bytes, setPath);
  expect(files.map((file) => [file.name, file.dependency])).toEqual([
    ['dep.proto', []],
    ['main.proto', ['dep.proto']],
    ['extra.proto', []],
  ]);
  expect(Buffer.from(concatBytes(files.map((file) => lengthDelimitedField(1, file.bytes)))).equals(bytes)).toBe(true);
  expect(files[1].descriptor()).toMatchObject({ name: 'main.proto', package: 'demo', syntax: 'proto3' });

  const alone = join(workspace.dir, 'alone.bin');
  expect(runDebianProtoc(['-Isrc', `-o${alone}`, 'main.proto'], { cwd: workspace.dir }).status).toBe(0);
  expect(readDescriptorSet(readFileSync(alone)).map((file) => file.name)).toEqual(['main.proto']);
});
