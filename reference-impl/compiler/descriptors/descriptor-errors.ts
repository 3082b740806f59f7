// The one error the .proto parser throws. Its message is what protoc prints on stderr for
// the same input where we can tell (one "file:line:column: text" line per problem, 1-based
// like protoc), so the compiler driver can print it as is and exit 1 like protoc.

export interface SourcePosition {
  /** 1-based, as protoc prints it. */
  line: number;
  /** 1-based; tabs advance to the next multiple of 8, as in protoc's tokenizer. */
  column: number;
}

export class ProtoParseError extends Error {
  readonly code = 'PROTO_PARSE';
  readonly lines: readonly string[];

  constructor(lines: string[]) {
    super(lines.join('\n'));
    this.name = 'ProtoParseError';
    this.lines = lines;
  }
}

/** One protoc-style error line: "file:line:column: text", or "file: text" when the position is unknown. */
export function errorLine(file: string, at: SourcePosition | undefined, text: string): string {
  return at ? `${file}:${at.line}:${at.column}: ${text}` : `${file}: ${text}`;
}
