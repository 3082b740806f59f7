// What a plugin case writes on the plugin's stdin. Requests are built from fixture
// .proto files the way a compiler builds them (the descriptions come from outside: the
// CLI wires the reference compiler's parser in), then bent on purpose where a case asks.
import {
  encodeRequest,
  unknownLengthDelimited,
  unknownVarint,
  type CodeGeneratorRequestInput,
  type ProtoFile,
  type VersionInput,
} from '../protocol/plugin-codec.js';
import type { PluginInput } from './plugin-suite-format.js';

/** Every named file and everything it imports, each after the files it imports. */
export type DescribeFiles = (files: string[]) => ProtoFile[];

/**
 * The compiler version the harness announces. It acts as protoc 3.21 would (the
 * behaviour the suites mirror); the suffix says who really sent the request.
 */
export const HARNESS_COMPILER_VERSION: VersionInput = { major: 3, minor: 21, patch: 12, suffix: 'touchstone' };

/** source_file_descriptors, which protoc 24+ sends and spec 3 does not list. */
const SOURCE_FILE_DESCRIPTORS = 17;
/** A varint field no version of the protocol uses, as a stand-in for whatever comes next. */
const FUTURE_VARINT_FIELD = 4242;

export function pluginStdin(input: PluginInput, describe: DescribeFiles): Uint8Array {
  if ('text' in input) return Buffer.from(input.text, 'utf8');
  if ('hex' in input) return Buffer.from(input.hex, 'hex');
  const spec = input.request;
  const protoFiles = describe(spec.files);
  const request: CodeGeneratorRequestInput = {
    file_to_generate: spec.files,
    ...(spec.parameter && { parameter: spec.parameter }),
    compiler_version: HARNESS_COMPILER_VERSION,
    proto_file: protoFiles,
  };
  if (spec.unknown_fields) {
    const generated = protoFiles.filter((f) => spec.files.includes(f.name));
    request.unknown_fields = [
      ...generated.map((f) => unknownLengthDelimited(SOURCE_FILE_DESCRIPTORS, f.bytes)),
      unknownVarint(FUTURE_VARINT_FIELD, 1),
    ];
  }
  // Two encoded messages concatenated are one message with both sets of fields.
  const bytes = spec.proto_file_first
    ? Buffer.concat([encodeRequest({ proto_file: request.proto_file }), encodeRequest({ ...request, proto_file: [] })])
    : Buffer.from(encodeRequest(request));
  if (!spec.truncate) return bytes;
  // proto_file comes last: cutting half of the last entry leaves a length prefix that
  // promises more bytes than follow.
  const last = protoFiles.at(-1);
  return bytes.subarray(0, bytes.length - Math.max(1, Math.ceil((last?.bytes.length ?? 2) / 2)));
}
