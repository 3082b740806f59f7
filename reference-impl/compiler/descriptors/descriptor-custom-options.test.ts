// Custom options' errors against protoc 3.21's: each case is one statement in a message of its
// own file, checked against the options of defs below (values of the wrong kind or out of
// range, sub-fields of scalars and of repeated messages, options set twice, aggregates
// that do not parse, options of extension ranges). Their encoding is compared byte for byte in source-code-info.test.ts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { parseProtoFiles, ProtoParseError } from './proto-parser.js';
import { runDebianProtoc, skipWithoutDebianProtoc } from '../../../test-support/debian-protoc.js';

const DEFS = `syntax = "proto2";
package e;
import "google/protobuf/descriptor.proto";
message Rule { optional int32 min = 1; repeated Rule many = 2; optional Rule sub = 3; enum K { A = 0; B = 1; } optional K k = 4; optional bool on = 5; }
extend google.protobuf.MessageOptions {
  optional int32 i32 = 50000; optional uint32 u32 = 50001; optional bool b = 50002; optional string s = 50003;
  optional Rule rule = 50004; optional Rule.K k = 50005; optional double d = 50006; optional uint64 u64 = 50007;
}
extend google.protobuf.FieldOptions { optional int32 fopt = 50000; }
`;

/** Each statement, and protoc's error for it (pinned, so they are checked where protoc is absent too). */
const CASES: [string, string][] = [
  ['option (i32) = 3000000000;', '5:18: Value out of range for int32 option "e.i32".'],
  ['option (i32) = "x";', '5:18: Value must be integer for int32 option "e.i32".'],
  ['option (u32) = -1;', '5:18: Value must be non-negative integer for uint32 option "e.u32".'],
  ['option (u32) = 5000000000;', '5:18: Value out of range for uint32 option "u32".'],
  ['option (b) = 1;', '5:16: Value must be identifier for boolean option "e.b".'],
  ['option (b) = yes;', '5:16: Value must be "true" or "false" for boolean option "e.b".'],
  ['option (s) = x;', '5:16: Value must be quoted string for string option "e.s".'],
  [
    'option (rule) = 1;',
    '5:19: Option "e.rule" is a message. To set the entire message, use syntax like "rule = { <proto text format> }". To set fields within it, use syntax like "rule.foo = value".',
  ],
  ['option (rule).min = 1; option (rule).min = 2;', '5:33: Option "(rule).min" was already set.'],
  ['option (rule).min.x = 1;', '5:10: Option "(rule).min" is an atomic type, not a message.'],
  [
    'option (rule).many.min = 1;',
    '5:10: Option field "(rule).many" is a repeated message. Repeated message options must be initialized using an aggregate value.',
  ],
  [
    'option (rule).nope = 1;',
    '5:10: Option "(rule).nope" unknown. Ensure that your proto definition file imports the proto which defines the option.',
  ],
  [
    'option (nope) = 1;',
    '5:10: Option "(nope)" unknown. Ensure that your proto definition file imports the proto which defines the option.',
  ],
  ['option (fopt) = 1;', '5:10: Option field "(fopt)" is not a field or extension of message "MessageOptions".'],
  ['option (k) = C;', '5:16: Enum type "e.Rule.K" has no value named "C" for option "e.k".'],
  ['option (k) = 1;', '5:16: Value must be identifier for enum-valued option "e.k".'],
  ['option (rule) = { nope: 1 };', '5:19: Error while parsing option value for "rule": Message type "e.Rule" has no field named "nope".'],
  ['option (rule) = { min: "x" };', '5:19: Error while parsing option value for "rule": Expected integer, got: "x"'],
  ['option (rule) = { k: C };', '5:19: Error while parsing option value for "rule": Unknown enumeration value of "C" for field "k".'],
  [
    'option (rule) = { on: maybe };',
    '5:19: Error while parsing option value for "rule": Invalid value for boolean field "on". Value: "maybe".',
  ],
  [
    'option (rule) = { min: 1 min: 2 };',
    '5:19: Error while parsing option value for "rule": Non-repeated field "min" is specified multiple times.',
  ],
  ['option (d) = inf;', '5:16: Value must be number for double option "e.d".'],
  ['option (u64) = -5;', '5:18: Value must be non-negative integer for uint64 option "e.u64".'],
  ['option (rule) = {min: 1}; option (rule).min = 2;', '5:36: Option "(rule).min" was already set.'],
  ['option (rule).sub.min = 1; option (rule) = {};', '5:37: Option "(rule)" was already set.'],
  ['option (rule) = { min 1 };', '5:19: Error while parsing option value for "rule": Expected ":", found "1".'],
  [
    'option (rule) = { [nope]: 1 };',
    '5:19: Error while parsing option value for "rule": Extension "nope" is not defined or is not an extension of "e.Rule".',
  ],
  [
    'extensions 10 to 20 [deprecated = true];',
    '5:24: Option "deprecated" unknown. Ensure that your proto definition file imports the proto which defines the option.',
  ],
  ['extensions 10 to 20 [(i32) = 1];', '5:24: Option field "(i32)" is not a field or extension of message "ExtensionRangeOptions".'],
];

let dir: string;
test.beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'touchstone-custom-options-'));
  writeFileSync(join(dir, 'defs.proto'), DEFS);
  CASES.forEach(([statement], i) =>
    writeFileSync(join(dir, `c${i}.proto`), `syntax = "proto2";\npackage e;\nimport "defs.proto";\nmessage M {\n  ${statement}\n}\n`),
  );
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

function ourErrors(file: string): string[] {
  try {
    parseProtoFiles([join(dir, file)], [dir]);
  } catch (e) {
    if (e instanceof ProtoParseError) return [...e.lines];
    throw e;
  }
  return [];
}

CASES.forEach(([statement, error], i) => {
  test(statement, () => {
    expect(ourErrors(`c${i}.proto`)).toEqual([`c${i}.proto:${error}`]);
    skipWithoutDebianProtoc(test);
    const protoc = runDebianProtoc(['-I', dir, '-o', '/dev/null', `c${i}.proto`], { cwd: dir });
    expect(protoc.stderr.split('\n').filter((l) => l !== '' && !l.includes('warning:'))).toEqual([`c${i}.proto:${error}`]);
  });
});
