// CodeGeneratorResponse as the compiler reads it. Decoded by hand on top of wire-reader.ts
// rather than with protobufjs' generated decoder, for two reasons:
// - File.content (and error, name, insertion_point) stay bytes: protoc writes whatever bytes
//   a plugin sent, invalid UTF-8 included, and prints `error` verbatim;
// - the parse must fail exactly when protoc's does (see wire-reader.ts).
// protoc only ever asks whether name, insertion_point and error are empty, never whether
// they are present, so absent and empty are the same here.
import { decodeGeneratedCodeInfo, type Annotation } from './generated-code-info.js';
import { WireFieldReader, WireFormatError } from '../common/wire-reader.js';

export interface ResponseFile {
  readonly name: Uint8Array;
  readonly insertionPoint: Uint8Array;
  readonly content: Uint8Array;
  /** generated_code_info, when the field was present (a repeated occurrence merges). */
  readonly codeInfo: Annotation[] | undefined;
}

export interface PluginResponse {
  error: Uint8Array;
  supportedFeatures: bigint;
  files: ResponseFile[];
}

export const FEATURE_PROTO3_OPTIONAL = 1n;
const EMPTY = new Uint8Array(0);

/**
 * A File as offsets into the plugin's output; its fields are views made when read. A
 * response can hold tens of thousands of Files, all alive until applied: three views
 * each, made up front, were three in four of the objects the garbage collector had to
 * copy, while views made as the File is applied die young. (An absent field is an empty
 * range.)
 */
class DecodedFile implements ResponseFile {
  nameStart = 0;
  nameEnd = 0;
  pointStart = 0;
  pointEnd = 0;
  contentStart = 0;
  contentEnd = 0;
  codeInfo: Annotation[] | undefined = undefined;
  constructor(private readonly buf: Uint8Array) {}

  get name(): Uint8Array {
    return this.buf.subarray(this.nameStart, this.nameEnd);
  }
  get insertionPoint(): Uint8Array {
    return this.buf.subarray(this.pointStart, this.pointEnd);
  }
  get content(): Uint8Array {
    return this.buf.subarray(this.contentStart, this.contentEnd);
  }
}

/** The File message at buf[start, end). */
function decodeFile(buf: Uint8Array, start: number, end: number, depth: number): ResponseFile {
  const file = new DecodedFile(buf);
  const field = new WireFieldReader(buf, depth, start, end);
  while (field.next()) {
    if (field.wireType !== 2) continue;
    if (field.number === 1) {
      file.nameStart = field.valueStart;
      file.nameEnd = field.valueEnd;
    } else if (field.number === 2) {
      file.pointStart = field.valueStart;
      file.pointEnd = field.valueEnd;
    } else if (field.number === 15) {
      file.contentStart = field.valueStart;
      file.contentEnd = field.valueEnd;
    } else if (field.number === 16) file.codeInfo = [...(file.codeInfo ?? []), ...decodeGeneratedCodeInfo(field.bytes, depth + 1)];
  }
  return file;
}

/** The decoded response, or undefined where protoc reports "Plugin output is unparseable". */
export function decodePluginResponse(bytes: Uint8Array): PluginResponse | undefined {
  const response: PluginResponse = { error: EMPTY, supportedFeatures: 0n, files: [] };
  // Parsed through a plain Uint8Array view: subarray on a Buffer goes through Node's
  // JavaScript wrapper and builds a Buffer object per field, a fifth of the decoding time
  // of a response with 11,000 Files. The values stay views into the plugin's output.
  const plain = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  try {
    const field = new WireFieldReader(plain);
    while (field.next()) {
      if (field.number === 1 && field.wireType === 2) response.error = field.bytes;
      else if (field.number === 2 && field.wireType === 0) response.supportedFeatures = field.varint;
      else if (field.number === 15 && field.wireType === 2) response.files.push(decodeFile(plain, field.valueStart, field.valueEnd, 1));
    }
  } catch (error) {
    if (error instanceof WireFormatError) return undefined;
    throw error;
  }
  return response;
}
