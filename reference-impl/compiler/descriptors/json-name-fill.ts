// protoc fills in json_name for every field and extension of every proto_file it sends a
// plugin (CopyJsonNameTo), whatever the source of the descriptor. A FileDescriptorSet
// written by `protoc -o` has none, so descriptors from --descriptor_set_in get them here.
// The edit is done on the wire, splicing one field into each FieldDescriptorProto that
// lacks it and leaving every other byte as it was: decoding and re-encoding through
// protobufjs would drop what it does not know, custom options above all.
import protobuf from 'protobufjs';
import { parseWireFields, type WireField } from '../common/wire-reader.js';

const LENGTH_DELIMITED = 2;

/** descriptor.cc ToJsonName: drop each '_' and upper-case (ASCII) the character after it. */
export function toJsonName(name: string): string {
  let result = '';
  let capitalizeNext = false;
  for (const c of name) {
    if (c === '_') capitalizeNext = true;
    else {
      result += capitalizeNext && c >= 'a' && c <= 'z' ? c.toUpperCase() : c;
      capitalizeNext = false;
    }
  }
  return result;
}

function lengthDelimited(number: number, payload: Uint8Array): Uint8Array {
  return protobuf.Writer.create()
    .uint32((number << 3) | LENGTH_DELIMITED)
    .bytes(payload)
    .finish();
}

/** `message` with the length-delimited fields `edit` chooses to replace re-encoded. */
function rewrite(message: Uint8Array, edit: (field: WireField) => Uint8Array | undefined, extra?: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [];
  let copiedTo = 0;
  for (const field of parseWireFields(message)) {
    const payload = field.wireType === LENGTH_DELIMITED ? edit(field) : undefined;
    if (payload === undefined) continue;
    parts.push(message.subarray(copiedTo, field.start), lengthDelimited(field.number, payload));
    copiedTo = field.end;
  }
  if (copiedTo === 0 && !extra) return message;
  parts.push(message.subarray(copiedTo));
  if (extra) parts.push(extra);
  return Buffer.concat(parts);
}

function fillField(field: Uint8Array): Uint8Array {
  const fields = parseWireFields(field);
  if (fields.some((f) => f.number === 10 && f.wireType === LENGTH_DELIMITED)) return field;
  const name = fields.filter((f) => f.number === 1 && f.wireType === LENGTH_DELIMITED).at(-1);
  const jsonName = toJsonName(Buffer.from(name?.bytes ?? []).toString('utf8'));
  return rewrite(field, () => undefined, lengthDelimited(10, Buffer.from(jsonName, 'utf8')));
}

function fillMessage(message: Uint8Array): Uint8Array {
  // DescriptorProto: field = 2, nested_type = 3, extension = 6.
  return rewrite(message, (f) =>
    f.number === 2 || f.number === 6 ? fillField(f.bytes) : f.number === 3 ? fillMessage(f.bytes) : undefined,
  );
}

/** An encoded FileDescriptorProto with json_name on every field and extension. */
export function fillJsonNames(file: Uint8Array): Uint8Array {
  // FileDescriptorProto: message_type = 4, extension = 7.
  return rewrite(file, (f) => (f.number === 4 ? fillMessage(f.bytes) : f.number === 7 ? fillField(f.bytes) : undefined));
}
