// Reads a FileDescriptorSet, what `protoc -o FILE` / `--descriptor_set_out=FILE` writes,
// into its files, each kept as the exact bytes protoc wrote, so a request built from them
// carries the descriptors as protoc itself would send them.
import { readProtoFileAt, type ProtoFile } from './proto-file.js';
import { strictUtf8Text } from '../core/strict-utf8.js';
import { MalformedMessageError, walkFields, WireType } from './wire-format.js';

/** FileDescriptorSet.file */
const FILE_FIELD = 1;

/**
 * The files of a descriptor set, in the set's order (protoc with --include_imports writes
 * each file after its imports). `source` names the input in errors, e.g. its path. An empty
 * input is an empty set, as it is on the wire.
 */
export function readDescriptorSet(bytes: Uint8Array, source = 'input'): ProtoFile[] {
  const where = `FileDescriptorSet (${source})`;
  const copy = new Uint8Array(bytes);
  try {
    const files: ProtoFile[] = [];
    for (const span of walkFields(copy, 0, copy.length, where)) {
      // protoc writes nothing else; anything else means this is some other message.
      if (span.field !== FILE_FIELD || span.wireType !== WireType.lengthDelimited) {
        throw new MalformedMessageError(
          where,
          span.start,
          `field ${span.field} with wire type ${span.wireType}: a descriptor set holds only field 1 (file), length-delimited`,
        );
      }
      const file = readProtoFileAt(copy, span.valueStart, span.valueEnd, `${where}.file[${files.length}]`);
      if (file.name === '') throw new MalformedMessageError(where, span.start, `file[${files.length}] has no name`);
      files.push(file);
    }
    return files;
  } catch (error) {
    if (!(error instanceof MalformedMessageError) || !looksLikeText(copy)) throw error;
    throw new MalformedMessageError(error.where, error.offset, `${error.reason}${TEXT_HINT}`);
  }
}

const TEXT_HINT = ' (the input looks like text; expected the binary file protoc writes with -o/--descriptor_set_out)';

function looksLikeText(bytes: Uint8Array): boolean {
  const text = strictUtf8Text(bytes.subarray(0, 256));
  return text !== undefined && /^[\t\n\r\x20-\x7e]*$/.test(text);
}
