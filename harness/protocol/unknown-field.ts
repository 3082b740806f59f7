// Fields a message's schema does not know, kept as the exact bytes that arrived so they
// are written back unchanged, plus builders for a runner that wants to send some on
// purpose (a newer compiler's source_file_descriptors, 17, or a newer plugin's
// minimum_edition, 3), to check a plugin or compiler ignores them as the spec's readers must.
import { HarnessError } from '../core/errors.js';
import { lengthDelimitedField, varintField, walkFields, WireType, type WireField } from './wire-format.js';

/** A field the schema does not know (or a known one with the wrong wire type), kept verbatim. */
export interface UnknownField {
  readonly field: number;
  readonly wireType: WireType;
  /** The whole occurrence as on the wire, tag included. */
  readonly bytes: Uint8Array;
}

const utf8Encoder = new TextEncoder();

/** Unknown fields added by a caller are written verbatim, so they must be one whole field. */
export function checkUnknownField(field: UnknownField, where: string): void {
  const label = `${where}.unknown_fields (field ${field.field})`;
  let spans: WireField[];
  try {
    spans = walkFields(field.bytes, 0, field.bytes.length, label);
  } catch (error) {
    throw new HarnessError('CONFIG', (error as Error).message);
  }
  if (spans.length !== 1 || spans[0].field !== field.field || spans[0].wireType !== field.wireType) {
    throw new HarnessError(
      'CONFIG',
      `${label}: bytes must hold exactly one occurrence of field ${field.field} with wire type ${field.wireType}`,
    );
  }
}

/** An unknown length-delimited field to add to a message (e.g. a newer compiler's field 17). */
export function unknownLengthDelimited(field: number, payload: Uint8Array | string): UnknownField {
  const bytes = typeof payload === 'string' ? utf8Encoder.encode(payload) : payload;
  return { field, wireType: WireType.lengthDelimited, bytes: lengthDelimitedField(field, bytes) };
}

/** An unknown varint field to add to a message (e.g. a newer plugin's minimum_edition, 3). */
export function unknownVarint(field: number, value: bigint | number): UnknownField {
  return { field, wireType: WireType.varint, bytes: varintField(field, value) };
}

/** The value bytes of an unknown field: without the tag, and without the length prefix or group tags. */
export function unknownFieldPayload(field: UnknownField): Uint8Array {
  const [span] = walkFields(field.bytes, 0, field.bytes.length, `unknown field ${field.field}`);
  return field.bytes.subarray(span.valueStart, span.valueEnd);
}
