// GeneratedCodeInfo in protobuf text format, for .pb.meta files. protoc tries a .pb.meta as
// wire format first and then as text (plugins write text because File.content is a string),
// and writes it back in the format it came in. The parser covers the text-format grammar
// protoc's TextFormat::Parser accepts for this one message (fields by name, optional ':'
// before a message, {} or <> delimiters, [a, b] lists, ';' or ',' separators, # comments,
// decimal/hex/octal integers, adjacent quoted strings with C escapes); anything else is a
// parse failure, as there, including `semantic`, which 3.21's descriptor.proto lacks.
// The printer reproduces TextFormat::PrintToString: two-space indent, one line per packed
// path element, strings through CEscape, unknown fields by number after the known ones.
import { cEscape } from '../common/c-escape.js';
import type { Annotation } from './generated-code-info.js';
import { parseWireFields, RECURSION_LIMIT, type WireField } from '../common/wire-reader.js';

type Token = { kind: 'identifier' | 'integer' | 'float' | 'string' | 'symbol'; text: string; value?: Uint8Array };

class TextFormatError extends Error {
  readonly code = 'TEXT_FORMAT';
  constructor(message: string) {
    super(message);
    this.name = 'TextFormatError';
  }
}

const SIMPLE_ESCAPES: Record<string, number> = { n: 10, t: 9, r: 13, a: 7, b: 8, f: 12, v: 11, '\\': 92, '?': 63, "'": 39, '"': 34 };

function unescapeC(body: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\') {
      out.push(c.charCodeAt(0)); // latin1: one character per input byte
      continue;
    }
    const next = body[++i];
    if (next in SIMPLE_ESCAPES) out.push(SIMPLE_ESCAPES[next]);
    else if (/[0-7]/.test(next)) {
      const digits = /^[0-7]{1,3}/.exec(body.slice(i))![0];
      out.push(parseInt(digits, 8) & 0xff);
      i += digits.length - 1;
    } else if (next === 'x' && /[0-9a-fA-F]/.test(body[i + 1] ?? '')) {
      const digits = /^[0-9a-fA-F]{1,2}/.exec(body.slice(i + 1))![0];
      out.push(parseInt(digits, 16));
      i += digits.length;
    } else if ((next === 'u' && /^[0-9a-fA-F]{4}/.test(body.slice(i + 1))) || (next === 'U' && /^[0-9a-fA-F]{8}/.test(body.slice(i + 1)))) {
      const length = next === 'u' ? 4 : 8;
      const codePoint = parseInt(body.slice(i + 1, i + 1 + length), 16);
      if (codePoint > 0x10ffff) throw new TextFormatError('invalid unicode escape');
      out.push(...Buffer.from(String.fromCodePoint(codePoint), 'utf8'));
      i += length;
    } else throw new TextFormatError(`invalid escape \\${next}`);
  }
  return Uint8Array.from(out);
}

const TOKEN = String.raw`[ \t\n\v\f\r]+|#[^\n]*|([A-Za-z_][A-Za-z0-9_]*)|(0[xX][0-9a-fA-F]+|\d+(?:\.\d*)?(?:[eE][+-]?\d+)?[fF]?|\.\d+(?:[eE][+-]?\d+)?[fF]?)|"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|([{}<>[\]:;,\-])`;

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  // A sticky expression per call: its lastIndex is the tokenizer's position.
  const pattern = new RegExp(TOKEN, 'y');
  while (pattern.lastIndex < text.length) {
    const at = pattern.lastIndex;
    const match = pattern.exec(text);
    if (!match) throw new TextFormatError(`unexpected character at ${at}`);
    const [, identifier, number, doubleQuoted, singleQuoted, symbol] = match;
    if (identifier !== undefined) tokens.push({ kind: 'identifier', text: identifier });
    else if (number !== undefined) {
      const isInteger = /^(0[xX][0-9a-fA-F]+|\d+)$/.test(number);
      if (isInteger && /^0\d/.test(number) && !/^0[0-7]+$/.test(number)) throw new TextFormatError('numbers starting with 0 must be octal');
      tokens.push({ kind: isInteger ? 'integer' : 'float', text: number });
    } else if (doubleQuoted !== undefined || singleQuoted !== undefined) {
      tokens.push({ kind: 'string', text: match[0], value: unescapeC(doubleQuoted ?? singleQuoted) });
    } else if (symbol !== undefined) tokens.push({ kind: 'symbol', text: symbol });
  }
  return tokens;
}

class Parser {
  private index = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(): Token | undefined {
    return this.tokens[this.index];
  }
  private tryConsume(symbol: string): boolean {
    const token = this.peek();
    if (token?.kind === 'symbol' && token.text === symbol) {
      this.index++;
      return true;
    }
    return false;
  }
  private consume(symbol: string): void {
    if (!this.tryConsume(symbol)) throw new TextFormatError(`expected "${symbol}"`);
  }
  private next(kind: Token['kind']): Token {
    const token = this.peek();
    if (token?.kind !== kind) throw new TextFormatError(`expected ${kind}`);
    this.index++;
    return token;
  }

  get atEnd(): boolean {
    return this.index >= this.tokens.length;
  }

  private integer(min: number, max: number): number {
    const negative = this.tryConsume('-');
    const text = this.next('integer').text;
    const magnitude = /^0[xX]/.test(text) ? BigInt(text) : /^0\d/.test(text) ? BigInt(`0o${text.slice(1)}`) : BigInt(text);
    const value = negative ? -magnitude : magnitude;
    if (value < BigInt(min) || value > BigInt(max)) throw new TextFormatError('integer out of range');
    return Number(value);
  }

  /** One value or a [v, ...] list of a repeated field; `[]` is an empty list. */
  private values(repeated: boolean, one: () => void): void {
    if (repeated && this.tryConsume('[')) {
      if (this.tryConsume(']')) return;
      for (;;) {
        one();
        if (this.tryConsume(']')) return;
        this.consume(',');
      }
    }
    one();
  }

  /** Fields until `delimiter` (undefined: end of input), through `field` by name. */
  fields(delimiter: string | undefined, field: (name: string) => void): void {
    for (;;) {
      const token = this.peek();
      if (delimiter === undefined ? token === undefined : token?.kind === 'symbol' && token.text === delimiter) return;
      if (token === undefined) throw new TextFormatError('unexpected end of input');
      field(this.next('identifier').text);
      if (!this.tryConsume(';')) this.tryConsume(',');
    }
  }

  annotation(): Annotation {
    const annotation: Annotation = { path: [], unknown: [] };
    const seen = new Set<string>();
    const close = this.tryConsume('<') ? '>' : (this.consume('{'), '}');
    this.fields(close, (name) => {
      if (name !== 'path' && seen.has(name)) throw new TextFormatError(`non-repeated field "${name}" is specified multiple times`);
      seen.add(name);
      this.consume(':');
      if (name === 'path') this.values(true, () => annotation.path.push(this.integer(-0x80000000, 0x7fffffff)));
      else if (name === 'begin') annotation.begin = this.integer(-0x80000000, 0x7fffffff);
      else if (name === 'end') annotation.end = this.integer(-0x80000000, 0x7fffffff);
      else if (name === 'source_file') {
        const parts = [this.next('string').value!];
        while (this.peek()?.kind === 'string') parts.push(this.next('string').value!);
        annotation.sourceFile = Buffer.concat(parts);
      } else throw new TextFormatError(`no field named ${name}`);
    });
    this.consume(close);
    return annotation;
  }

  codeInfo(): Annotation[] {
    const annotations: Annotation[] = [];
    this.fields(undefined, (name) => {
      if (name !== 'annotation') throw new TextFormatError(`no field named ${name}`);
      this.tryConsume(':');
      this.values(true, () => annotations.push(this.annotation()));
    });
    return annotations;
  }
}

/** The annotations of a text-format GeneratedCodeInfo, or undefined when it does not parse. */
export function parseGeneratedCodeInfoText(bytes: Uint8Array): Annotation[] | undefined {
  try {
    // The C++ tokenizer works on bytes: latin1 maps each byte to one character, so bytes
    // inside strings (UTF-8 or not) come back unchanged and any other non-ASCII byte is
    // a character no token accepts.
    return new Parser(tokenize(Buffer.from(bytes).toString('latin1'))).codeInfo();
  } catch (error) {
    if (error instanceof TextFormatError) return undefined;
    throw error;
  }
}

/** protoc's kUnknownFieldRecursionLimit: how deep unknown fields are printed as messages. */
const UNKNOWN_FIELD_RECURSION_LIMIT = 10;

/**
 * TextFormat::Printer::PrintUnknownFields for one encoded field, with what is left of its
 * recursion budget: a length-delimited field is printed as a message only while budget
 * remains and it parses within that many nested groups; past it, as a string.
 */
function printUnknown(field: WireField, indent: string, lines: string[], budget = UNKNOWN_FIELD_RECURSION_LIMIT): void {
  // parseWireFields allows RECURSION_LIMIT nested groups from `depth`: started this deep, `budget` remain.
  const fields = (bytes: Uint8Array) => parseWireFields(bytes, RECURSION_LIMIT - budget);
  const nested = (bytes: Uint8Array) => {
    lines.push(`${indent}${field.number} {`);
    for (const inner of fields(bytes)) printUnknown(inner, `${indent}  `, lines, budget - 1);
    lines.push(`${indent}}`);
  };
  const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).reverse().toString('hex')}`;
  switch (field.wireType) {
    case 0:
      return void lines.push(`${indent}${field.number}: ${field.varint}`);
    case 1:
    case 5:
      return void lines.push(`${indent}${field.number}: ${hex(field.bytes)}`);
    case 3:
      return nested(field.bytes);
    case 2: {
      // Printed as a message when it parses as one, else as a string.
      let parses = field.bytes.length > 0 && budget > 0;
      try {
        if (parses) fields(field.bytes);
      } catch {
        parses = false;
      }
      if (parses) return nested(field.bytes);
      return void lines.push(`${indent}${field.number}: "${cEscape(field.bytes)}"`);
    }
  }
}

export function printGeneratedCodeInfoText(annotations: Annotation[]): Uint8Array {
  const lines: string[] = [];
  for (const annotation of annotations) {
    lines.push('annotation {');
    for (const element of annotation.path) lines.push(`  path: ${element}`);
    if (annotation.sourceFile !== undefined) lines.push(`  source_file: "${cEscape(annotation.sourceFile)}"`);
    if (annotation.begin !== undefined) lines.push(`  begin: ${annotation.begin}`);
    if (annotation.end !== undefined) lines.push(`  end: ${annotation.end}`);
    for (const raw of annotation.unknown) for (const field of parseWireFields(raw)) printUnknown(field, '  ', lines);
    lines.push('}');
  }
  return Buffer.from(lines.map((line) => `${line}\n`).join(''), 'utf8');
}
