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
import type { PluginInput, PluginRequestSpec } from './plugin-suite-format.js';

/** Every named file and everything it imports, each after the files it imports. */
export type DescribeFiles = (files: string[]) => ProtoFile[];

/**
 * The compiler version the harness announces: protoc 3.21.12's, whose requests the harness builds
 * byte for byte (protoc-request.test.ts). No suffix: spec 3 keeps it for "alpha, beta or rc
 * releases; empty for mainline stable releases".
 */
export const HARNESS_COMPILER_VERSION: VersionInput = { major: 3, minor: 21, patch: 12, suffix: '' };

/** source_file_descriptors, which protoc 24+ sends and spec 3 does not list. */
const SOURCE_FILE_DESCRIPTORS = 17;
/** A varint field no version of the protocol uses, as a stand-in for whatever comes next. */
const FUTURE_VARINT_FIELD = 4242;

/** The request a sound fixture gets: the files, as a compiler sends them, nothing bent. */
export function soundRequest(files: string[]): PluginRequestSpec {
  return { files };
}

/**
 * The parameter a plugin receives: --parameter, then the case's own, joined by a comma, as
 * protoc joins the parameter of --NAME_out and the values of --NAME_opt; none when both are empty.
 */
export function mergedParameter(given: string | undefined, own: string | undefined): string | undefined {
  const merged = [given, own].filter(Boolean).join(',');
  return merged || undefined;
}

/** What a case writes on the plugin's stdin; `parameter` (--parameter) reaches every built request. */
export function pluginStdin(
  input: Exclude<PluginInput, { sound_requests: unknown }>,
  describe: DescribeFiles,
  parameter?: string,
): Uint8Array {
  if ('text' in input) return Buffer.from(input.text, 'utf8');
  if ('hex' in input) return Buffer.from(input.hex, 'hex');
  return buildRequest(input.request, describe, parameter);
}

export function buildRequest(spec: PluginRequestSpec, describe: DescribeFiles, given?: string): Uint8Array {
  const protoFiles = describe(spec.files);
  const parameter = mergedParameter(given, spec.parameter);
  const request: CodeGeneratorRequestInput = {
    file_to_generate: spec.files,
    ...(parameter && { parameter }),
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
