// GeneratedCodeInfo (descriptor.proto) in wire format: read strictly like protoc (it arrives
// inside a plugin response, and a .pb.meta file is tried as wire format first), written in
// field-number order like protoc's SerializeToString. Text format: generated-code-info-text.ts.
//
// The schema is protoc 3.21's: Annotation has path (1, packed), source_file (2), begin (3)
// and end (4), and nothing else. `semantic` (5) came later, so 3.21 keeps it, like any
// other field it does not know, as an unknown field: carried along, written back after the
// known fields, and printed by number in text format. Top-level unknown fields never reach
// the output (protoc rebuilds the message from the annotations), so they are not kept.
import protobuf from 'protobufjs';
import { parsePackedVarints, parseWireFields, toInt32 } from '../common/wire-reader.js';

export interface Annotation {
  path: number[];
  /** Bytes, as protoc keeps them (a proto2 string is not required to be UTF-8). */
  sourceFile?: Uint8Array;
  begin?: number;
  end?: number;
  /** Fields 3.21 does not know (or with an unexpected wire type), encoded, in wire order. */
  unknown: Uint8Array[];
}

function decodeAnnotation(bytes: Uint8Array, depth: number): Annotation {
  const annotation: Annotation = { path: [], unknown: [] };
  for (const field of parseWireFields(bytes, depth)) {
    if (field.number === 1 && field.wireType === 0) annotation.path.push(toInt32(field.varint));
    else if (field.number === 1 && field.wireType === 2) annotation.path.push(...parsePackedVarints(field.bytes).map(toInt32));
    else if (field.number === 2 && field.wireType === 2) annotation.sourceFile = field.bytes;
    else if (field.number === 3 && field.wireType === 0) annotation.begin = toInt32(field.varint);
    else if (field.number === 4 && field.wireType === 0) annotation.end = toInt32(field.varint);
    else annotation.unknown.push(bytes.subarray(field.start, field.end));
  }
  return annotation;
}

/** Annotations of an encoded GeneratedCodeInfo; throws WireFormatError like a failed parse. */
export function decodeGeneratedCodeInfo(bytes: Uint8Array, depth = 0): Annotation[] {
  return parseWireFields(bytes, depth)
    .filter((field) => field.number === 1 && field.wireType === 2)
    .map((field) => decodeAnnotation(field.bytes, depth + 1));
}

function encodeAnnotation(annotation: Annotation): Uint8Array {
  const writer = protobuf.Writer.create();
  if (annotation.path.length > 0) {
    // path is [packed = true].
    writer.uint32((1 << 3) | 2).fork();
    for (const element of annotation.path) writer.int32(element);
    writer.ldelim();
  }
  if (annotation.sourceFile !== undefined) writer.uint32((2 << 3) | 2).bytes(annotation.sourceFile);
  if (annotation.begin !== undefined) writer.uint32(3 << 3).int32(annotation.begin);
  if (annotation.end !== undefined) writer.uint32(4 << 3).int32(annotation.end);
  return Buffer.concat([writer.finish(), ...annotation.unknown]);
}

export function encodeGeneratedCodeInfo(annotations: Annotation[]): Uint8Array {
  const writer = protobuf.Writer.create();
  for (const annotation of annotations) writer.uint32((1 << 3) | 2).bytes(encodeAnnotation(annotation));
  return writer.finish();
}
