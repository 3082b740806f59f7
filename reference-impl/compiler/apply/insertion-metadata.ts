// After an insertion, protoc 3.21 keeps the target's `<name>.pb.meta` (GeneratedCodeInfo)
// in step with the text (MemoryOutputStream::UpdateMetadata and InsertShiftedInfo):
// - no .pb.meta and nothing to insert: nothing happens;
// - no .pb.meta but the File carried annotations: one is created, in wire format;
// - an existing .pb.meta is read as wire format, else as text format, and written back in
//   the format it came in; unreadable, it is left alone with a message that is not an error;
// - existing annotations keep their order; the inserted ones go in before the first that
//   begins at or after the insertion offset, and that one and all after it move by the
//   inserted length (indentation included);
// - an inserted annotation moves by the offset plus one indent per line before it, and its
//   end also by one indent per line break inside it (the content's final newline excluded);
//   protoc carries that inner indent over to the annotations after it, and so does this.
// int32 arithmetic wraps as it does in protoc's set_begin/set_end.
import { decodeGeneratedCodeInfo, encodeGeneratedCodeInfo, type Annotation } from '../response/generated-code-info.js';
import { parseGeneratedCodeInfoText, printGeneratedCodeInfoText } from '../response/generated-code-info-text.js';
import { WireFormatError } from '../common/wire-reader.js';

export interface InsertionFacts {
  /** The target file's name in its output location. */
  filename: string;
  /** What was inserted before indentation. protoc ends it with a newline when it lacks
   *  one; here that newline may be missing (the splice adds it without copying the
   *  content). Nothing below changes: only newlines before the final byte are counted,
   *  and the byte before an added newline is not one. */
  content: Uint8Array;
  /** Byte offset of the insertion in the target. */
  offset: number;
  /** Bytes actually inserted: content plus one indent per line. */
  length: number;
  indent: number;
  /** The File's generated_code_info annotations (none when the field was absent). */
  annotations: Annotation[];
}

const NEWLINE = 0x0a;
/** protoc compares int32 offsets with size_t positions: a negative one counts as huge. */
const asSize = (n: number) => (n < 0 ? Infinity : n);

function readMeta(bytes: Uint8Array): { annotations: Annotation[]; text: boolean } | undefined {
  try {
    return { annotations: decodeGeneratedCodeInfo(bytes), text: false };
  } catch (error) {
    if (!(error instanceof WireFormatError)) throw error;
  }
  const annotations = parseGeneratedCodeInfoText(bytes);
  return annotations && { annotations, text: true };
}

function shiftedInsertions(facts: InsertionFacts): Annotation[] {
  const { content, indent } = facts;
  let offset = facts.offset + indent;
  let pos = 0;
  return facts.annotations.map((source) => {
    const begin = source.begin ?? 0;
    const end = source.end ?? 0;
    let innerIndent = 0;
    for (; pos < asSize(end) && pos < content.length - 1; pos++) {
      if (content[pos] !== NEWLINE) continue;
      if (pos >= asSize(begin)) innerIndent += indent;
      else offset += indent;
    }
    const shifted = { ...source, begin: (begin + offset) | 0 };
    // As protoc does it: the inner indent also moves every later inserted annotation.
    offset += innerIndent;
    return { ...shifted, end: (end + offset) | 0 };
  });
}

/** Updates `files` (one output location) after an insertion; `report` takes messages. */
export function updateInsertionMetadata(files: Map<string, Uint8Array>, facts: InsertionFacts, report: (text: string) => void): void {
  const metaName = `${facts.filename}.pb.meta`;
  const existing = files.get(metaName);
  if (existing === undefined && facts.annotations.length === 0) return;
  let current: Annotation[] = [];
  let text = false;
  if (existing !== undefined) {
    const read = readMeta(existing);
    if (!read) {
      report(`${metaName}: Could not parse metadata as wire or text format.\n`);
      return;
    }
    ({ annotations: current, text } = read);
  }
  const merged: Annotation[] = [];
  let crossed = false;
  let shift = 0;
  for (const annotation of current) {
    if (!crossed && asSize(annotation.begin ?? 0) >= facts.offset) {
      crossed = true;
      merged.push(...shiftedInsertions(facts));
      shift = facts.length;
    }
    merged.push({ ...annotation, begin: ((annotation.begin ?? 0) + shift) | 0, end: ((annotation.end ?? 0) + shift) | 0 });
  }
  if (!crossed) merged.push(...shiftedInsertions(facts));
  files.set(metaName, text ? printGeneratedCodeInfoText(merged) : encodeGeneratedCodeInfo(merged));
}
