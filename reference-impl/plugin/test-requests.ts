// Builders for the CodeGeneratorRequests of the unit tests: small descriptors written by hand
// (what protoc would send for a few lines of .proto), passed through the protobufjs codec so
// generate() sees exactly what it sees when a compiler runs it.
import type { CodeGeneratorRequest, FieldDescriptor, FileDescriptor, MessageDescriptor } from './descriptor-types.js';
import { createPluginCodec } from './plugin-codec.js';

export function field(name: string, number: number, type: FieldDescriptor['type'], extra: Partial<FieldDescriptor> = {}): FieldDescriptor {
  return { name, number, label: 'LABEL_OPTIONAL', type, json_name: jsonName(name), ...extra };
}

export function message(name: string, fields: FieldDescriptor[], extra: Partial<MessageDescriptor> = {}): MessageDescriptor {
  return { name, field: fields, ...extra };
}

export function proto3File(name: string, pkg: string, extra: Partial<FileDescriptor> = {}): FileDescriptor {
  return { name, package: pkg, syntax: 'proto3', ...extra };
}

/** The request as a compiler would send it, after a trip through the wire format. */
export function wireRequest(request: CodeGeneratorRequest): CodeGeneratorRequest {
  const codec = createPluginCodec();
  return codec.decodeRequest(codec.encodeRequest(request));
}

/**
 * A small but complete file: proto3 `optional` (with its synthetic oneof `_maybe`, as protoc
 * builds it), a real oneof, a map (with its entry type), a nested enum, a reference to
 * another file and to a well-known type.
 */
export function demoRequest(parameter?: string): CodeGeneratorRequest {
  const common = proto3File('demo/common.proto', 'demo', {
    message_type: [message('Point', [field('x', 1, 'TYPE_INT32'), field('y', 2, 'TYPE_INT32')])],
  });
  const timestamp = proto3File('google/protobuf/timestamp.proto', 'google.protobuf', {
    message_type: [message('Timestamp', [field('seconds', 1, 'TYPE_INT64'), field('nanos', 2, 'TYPE_INT32')])],
  });
  const foo = proto3File('demo/foo.proto', 'demo', {
    dependency: ['demo/common.proto', 'google/protobuf/timestamp.proto'],
    message_type: [
      message(
        'Foo',
        [
          field('name', 1, 'TYPE_STRING'),
          field('maybe', 2, 'TYPE_INT32', { proto3_optional: true, oneof_index: 1 }),
          field('circle', 3, 'TYPE_MESSAGE', { type_name: '.demo.Foo.Circle', oneof_index: 0 }),
          field('label', 4, 'TYPE_STRING', { oneof_index: 0 }),
          field('counts', 5, 'TYPE_MESSAGE', { label: 'LABEL_REPEATED', type_name: '.demo.Foo.CountsEntry' }),
          field('points', 6, 'TYPE_MESSAGE', { label: 'LABEL_REPEATED', type_name: '.demo.Point' }),
          field('at', 7, 'TYPE_MESSAGE', { type_name: '.google.protobuf.Timestamp' }),
          field('kind', 8, 'TYPE_ENUM', { type_name: '.demo.Foo.Kind' }),
          field('big_number', 9, 'TYPE_UINT64'),
        ],
        {
          oneof_decl: [{ name: 'shape' }, { name: '_maybe' }],
          nested_type: [
            message('Circle', [field('radius', 1, 'TYPE_DOUBLE')]),
            message('CountsEntry', [field('key', 1, 'TYPE_STRING'), field('value', 2, 'TYPE_INT64')], { options: { map_entry: true } }),
          ],
          enum_type: [
            {
              name: 'Kind',
              value: [
                { name: 'KIND_UNSPECIFIED', number: 0 },
                { name: 'KIND_ROUND', number: 1 },
              ],
            },
          ],
        },
      ),
    ],
    source_code_info: {
      location: [
        { path: [4, 0], leading_comments: ' The Foo.\n' },
        { path: [4, 0, 2, 1], leading_comments: ' Maybe a number.\n' },
      ],
    },
  });
  return wireRequest({
    file_to_generate: ['demo/foo.proto'],
    ...(parameter !== undefined ? { parameter } : {}),
    proto_file: [common, timestamp, foo],
    compiler_version: { major: 3, minor: 21, patch: 12, suffix: '' },
  });
}

function jsonName(name: string): string {
  return name.replace(/_(.)/g, (_, letter: string) => letter.toUpperCase());
}
