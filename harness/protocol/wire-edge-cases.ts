// Plugin outputs at the edges of the wire format: malformed ones, each with where our
// decoder must report it, and unusual ones that are still valid. Shared by the in-process
// tests and the interop test that checks protoc judges every one of them the same way.
const file = (...values: number[]) => Uint8Array.from(values);

export interface MalformedResponse {
  title: string;
  bytes: Uint8Array;
  /** Byte offset the error names. */
  offset: number;
  /** A fragment of the error's reason. */
  reason: string;
  /** The message the error names. */
  where?: string;
}

export const MALFORMED_RESPONSES: readonly MalformedResponse[] = [
  {
    title: 'text instead of a message',
    bytes: new TextEncoder().encode('this is not a protobuf\n'),
    offset: 0,
    reason: 'end-group tag for field 14 without a matching start-group',
  },
  // Truncated plugin output, which protoc 3.21 reports as "Plugin output is unparseable".
  {
    title: 'a truncated message',
    bytes: file(0x10, 0x01, 0x7a, 0x13, 0x0a, 0x09, 0x68, 0x65, 0x6c, 0x6c),
    offset: 3,
    reason: 'field 15 has length 19, past the end of the message at byte 10',
  },
  { title: 'a truncated varint', bytes: file(0x10, 0x81), offset: 1, reason: 'truncated varint' },
  {
    title: 'a varint longer than 10 bytes',
    bytes: file(0x10, ...new Array<number>(10).fill(0xff), 0x01),
    offset: 1,
    reason: 'varint longer than 10 bytes',
  },
  { title: 'wire type 6', bytes: file(0x0e, 0x00), offset: 0, reason: 'invalid wire type 6 (field 1)' },
  { title: 'wire type 7', bytes: file(0x08, 0x01, 0x7f), offset: 2, reason: 'invalid wire type 7 (field 15)' },
  { title: 'field number 0', bytes: file(0x00, 0x01), offset: 0, reason: 'field number 0 is invalid' },
  {
    title: 'a tag longer than 5 bytes',
    bytes: file(0x88, 0x80, 0x80, 0x80, 0x80, 0x00, 0x01),
    offset: 0,
    reason: 'tag longer than 5 bytes',
  },
  {
    title: 'a length longer than 5 bytes',
    bytes: file(0x0a, 0x81, 0x80, 0x80, 0x80, 0x80, 0x00, 0x78),
    offset: 1,
    reason: 'field 1 has a length longer than 5 bytes',
  },
  {
    title: 'a length over 2^31-1',
    bytes: file(0x0a, 0x81, 0x80, 0x80, 0x80, 0x10, 0x78),
    offset: 1,
    reason: 'field 1 has length 4294967297, over 2^31-1',
  },
  { title: 'a group that is never closed', bytes: file(0x1b, 0x08, 0x01), offset: 0, reason: 'group for field 3 is not closed' },
  {
    title: 'a group closed by another field',
    bytes: file(0x1b, 0x24),
    offset: 1,
    reason: 'end-group tag for field 4 closes the group of field 3',
  },
  { title: 'a truncated fixed64', bytes: file(0x19, 0x01, 0x02), offset: 1, reason: 'truncated 64-bit value of field 3' },
  {
    title: 'a File whose content length runs past the File',
    // file[0] is fine; file[1] = { name: "b", content: length 9 but 1 byte left in the File }
    bytes: file(0x7a, 0x03, 0x0a, 0x01, 0x61, 0x7a, 0x05, 0x0a, 0x01, 0x62, 0x7a, 0x09),
    offset: 11,
    reason: 'field 15 has length 9, past the end of the message at byte 12',
    where: 'CodeGeneratorResponse.file[1]',
  },
  {
    title: 'a malformed GeneratedCodeInfo inside a File',
    // file[0] = { name: "a", generated_code_info: { annotation: length 5 with nothing after it } }
    bytes: file(0x7a, 0x08, 0x0a, 0x01, 0x61, 0x82, 0x01, 0x02, 0x0a, 0x05),
    offset: 9,
    reason: 'field 1 has length 5, past the end of the message at byte 10',
    where: 'CodeGeneratorResponse.file[0].generated_code_info',
  },
];

export interface UnusualResponse {
  title: string;
  bytes: Uint8Array;
  /** What readableResponse gives for it. */
  readable: Record<string, unknown>;
}

export const UNUSUAL_VALID_RESPONSES: readonly UnusualResponse[] = [
  { title: 'empty output', bytes: file(), readable: {} },
  // Tag of supported_features (0x10) in 5 bytes with bits past 32 set: protoc keeps the low 32.
  { title: 'a padded tag with bits past 32', bytes: file(0x90, 0x80, 0x80, 0x80, 0x70, 0x01), readable: { supported_features: '1' } },
  { title: 'a length padded to 5 bytes', bytes: file(0x0a, 0x81, 0x80, 0x80, 0x80, 0x00, 0x78), readable: { error: 'x' } },
  {
    title: 'a 10-byte varint with bits past 64',
    bytes: file(0x10, ...new Array<number>(9).fill(0xff), 0x7f),
    readable: { supported_features: '18446744073709551615' },
  },
  {
    title: 'an unknown group',
    bytes: file(0x1b, 0x08, 0x01, 0x1c),
    readable: { unknown_fields: [{ field: 3, wireType: 3, base64: 'CAE=' }] },
  },
  {
    title: 'a known field with the wrong wire type',
    bytes: file(0x08, 0x05),
    readable: { unknown_fields: [{ field: 1, wireType: 0, base64: 'BQ==' }] },
  },
  {
    title: 'fields in reverse order, error given twice',
    bytes: file(0x7a, 0x03, 0x0a, 0x01, 0x61, 0x10, 0x01, 0x0a, 0x01, 0x78, 0x0a, 0x01, 0x79),
    readable: { error: 'y', supported_features: '1', file: [{ name: 'a' }] },
  },
];
