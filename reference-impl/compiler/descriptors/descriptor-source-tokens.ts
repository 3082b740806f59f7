// A small lexer over .proto source, used next to protobufjs's parser for what protobufjs's
// reflection objects do not keep: positions (protoc reports "file:line:column"), declaration
// order across kinds, and the literal text of default values (protobufjs turns 64-bit
// integers into doubles and string escapes into UTF-16 code units). It follows protoc's
// tokenizer where that shows: '.' and '-' are symbols, tabs advance the column to the next
// multiple of 8, and string escapes decode to bytes.
import type { SourcePosition } from './descriptor-errors.js';

export interface SourceToken {
  kind: 'ident' | 'number' | 'string' | 'symbol';
  /** The text as written (strings with their quotes). */
  text: string;
  at: SourcePosition;
  /** Strings only: the bytes the literal denotes. */
  bytes?: Uint8Array;
}

const TAB_WIDTH = 8;
const SIMPLE_ESCAPES: Record<string, number> = {
  a: 0x07,
  b: 0x08,
  f: 0x0c,
  n: 0x0a,
  r: 0x0d,
  t: 0x09,
  v: 0x0b,
  '\\': 0x5c,
  '?': 0x3f,
  "'": 0x27,
  '"': 0x22,
};

export function tokenizeProto(source: string): SourceToken[] {
  const tokens: SourceToken[] = [];
  let i = 0;
  let line = 0;
  let column = 0;
  const advance = (count: number): void => {
    for (let k = 0; k < count && i < source.length; k++, i++) {
      const c = source[i];
      if (c === '\n') {
        line++;
        column = 0;
      } else if (c === '\t') column += TAB_WIDTH - (column % TAB_WIDTH);
      else column++;
    }
  };
  while (i < source.length) {
    const c = source[i];
    const rest = source.slice(i, i + 2);
    if (/\s/.test(c)) advance(1);
    else if (rest === '//') {
      const end = source.indexOf('\n', i);
      advance((end < 0 ? source.length : end) - i);
    } else if (rest === '/*') {
      const end = source.indexOf('*/', i + 2);
      advance((end < 0 ? source.length : end + 2) - i);
    } else {
      const at = { line: line + 1, column: column + 1 };
      const length = tokenLength(source, i);
      const text = source.slice(i, i + length);
      const kind = /[A-Za-z_]/.test(c)
        ? 'ident'
        : /[0-9]/.test(c) || (c === '.' && /[0-9]/.test(source[i + 1] ?? ''))
          ? 'number'
          : c === '"' || c === "'"
            ? 'string'
            : 'symbol';
      tokens.push(kind === 'string' ? { kind, text, at, bytes: unescapeLiteral(text.slice(1, -1)) } : { kind, text, at });
      advance(length);
    }
  }
  return tokens;
}

function tokenLength(source: string, start: number): number {
  const c = source[start];
  const match = (pattern: RegExp): number => {
    pattern.lastIndex = start;
    return pattern.exec(source)?.[0].length ?? 1;
  };
  if (/[A-Za-z_]/.test(c)) return match(/[A-Za-z0-9_]+/y);
  // Numbers swallow letters and dots like protoc's tokenizer (so "1e+10", "0x1F", "1.5f");
  // a sign is part of the number only right after an exponent mark of a decimal number.
  if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(source[start + 1] ?? '')))
    return match(/(?:0[xX][0-9A-Fa-f]+|(?:[0-9.]|[eE][+-]?|[A-Za-z_])+)/y);
  if (c === '"' || c === "'") {
    let end = start + 1;
    while (end < source.length && source[end] !== c && source[end] !== '\n') end += source[end] === '\\' ? 2 : 1;
    return Math.min(end + 1, source.length) - start;
  }
  return 1;
}

/** Decodes a string literal's body the way protoc does: escapes give bytes, other characters their UTF-8. */
export function unescapeLiteral(body: string): Uint8Array {
  const out: number[] = [];
  const utf8 = new TextEncoder();
  for (let i = 0; i < body.length; ) {
    const c = body[i];
    if (c !== '\\') {
      const code = body.codePointAt(i) ?? 0;
      const char = String.fromCodePoint(code);
      out.push(...utf8.encode(char));
      i += char.length;
      continue;
    }
    const e = body[i + 1] ?? '';
    let m: RegExpMatchArray | null;
    if ((m = /^[0-7]{1,3}/.exec(body.slice(i + 1, i + 4)))) {
      out.push(parseInt(m[0], 8) & 0xff);
      i += 1 + m[0].length;
    } else if ((e === 'x' || e === 'X') && (m = /^[0-9A-Fa-f]{1,2}/.exec(body.slice(i + 2, i + 4)))) {
      out.push(parseInt(m[0], 16));
      i += 2 + m[0].length;
    } else if (
      (e === 'u' && (m = /^[0-9A-Fa-f]{4}/.exec(body.slice(i + 2)))) ||
      (e === 'U' && (m = /^[0-9A-Fa-f]{8}/.exec(body.slice(i + 2))))
    ) {
      out.push(...utf8.encode(String.fromCodePoint(parseInt(m[0], 16))));
      i += 2 + m[0].length;
    } else {
      // protoc rejects unknown escapes; protobufjs's parser has already accepted the file, so keep the character.
      out.push(SIMPLE_ESCAPES[e] ?? e.charCodeAt(0));
      i += 2;
    }
  }
  return Uint8Array.from(out);
}
