// CodeGeneratorResponse as the compiler reads it. Decoded by hand on top of wire-reader.ts
// rather than with protobufjs' generated decoder, for two reasons:
// - File.content (and error, name, insertion_point) stay bytes: protoc writes whatever bytes
//   a plugin sent, invalid UTF-8 included, and prints `error` verbatim;
// - the parse must fail exactly when protoc's does (see wire-reader.ts).
// protoc only ever asks whether name, insertion_point and error are empty, never whether
// they are present, so absent and empty are the same here.
import { decodeGeneratedCodeInfo, type Annotation } from './generated-code-info.js';
import { parseWireFields, WireFormatError } from './wire-reader.js';

export interface ResponseFile {
  name: Uint8Array;
  insertionPoint: Uint8Array;
  content: Uint8Array;
  /** generated_code_info, when the field was present (a repeated occurrence merges). */
  codeInfo: Annotation[] | undefined;
}

export interface PluginResponse {
  error: Uint8Array;
  supportedFeatures: bigint;
  files: ResponseFile[];
}

export const FEATURE_PROTO3_OPTIONAL = 1n;
const EMPTY = new Uint8Array(0);

function decodeFile(bytes: Uint8Array, depth: number): ResponseFile {
  const file: ResponseFile = { name: EMPTY, insertionPoint: EMPTY, content: EMPTY, codeInfo: undefined };
  for (const field of parseWireFields(bytes, depth)) {
    if (field.wireType !== 2) continue;
    if (field.number === 1) file.name = field.bytes;
    else if (field.number === 2) file.insertionPoint = field.bytes;
    else if (field.number === 15) file.content = field.bytes;
    else if (field.number === 16) file.codeInfo = [...(file.codeInfo ?? []), ...decodeGeneratedCodeInfo(field.bytes, depth + 1)];
  }
  return file;
}

/** The decoded response, or undefined where protoc reports "Plugin output is unparseable". */
export function decodePluginResponse(bytes: Uint8Array): PluginResponse | undefined {
  const response: PluginResponse = { error: EMPTY, supportedFeatures: 0n, files: [] };
  try {
    for (const field of parseWireFields(bytes)) {
      if (field.number === 1 && field.wireType === 2) response.error = field.bytes;
      else if (field.number === 2 && field.wireType === 0) response.supportedFeatures = field.varint;
      else if (field.number === 15 && field.wireType === 2) response.files.push(decodeFile(field.bytes, 1));
    }
  } catch (error) {
    if (error instanceof WireFormatError) return undefined;
    throw error;
  }
  return response;
}
