// A forgiving cursor over .proto tokens for the source scan: every read may run past the
// end (it then yields undefined), because the scan must never throw on text protobufjs is
// about to reject with a proper error.
import type { SourcePosition } from './descriptor-errors.js';
import type { SourceToken } from './descriptor-source-tokens.js';

export interface ScannedLiteral {
  negative: boolean;
  token: SourceToken;
  /** Adjacent string literals concatenated, as protoc does. */
  bytes?: Uint8Array;
}

export interface TokenCursor {
  done(): boolean;
  peek(offset?: number): SourceToken | undefined;
  text(offset?: number): string | undefined;
  take(): SourceToken | undefined;
  /** Consumes the next token if its text is `t`. */
  accept(t: string): boolean;
  /** Skips to after the `;` or the balanced `{…}` that ends the current statement. */
  skipStatement(): void;
  /** Skips to (not past) one of `end` outside brackets and braces. */
  skipTo(end: Set<string>): void;
  /** A possibly dotted, possibly absolute type name: `.a.b.C`. */
  readTypeName(): { name: string; at?: SourcePosition };
  /** A value as written: optional '-', then a token; adjacent strings joined. */
  readLiteral(): ScannedLiteral | undefined;
}

export function createTokenCursor(tokens: SourceToken[]): TokenCursor {
  let i = 0;
  const cursor: TokenCursor = {
    done: () => i >= tokens.length,
    peek: (offset = 0) => tokens[i + offset],
    text: (offset = 0) => tokens[i + offset]?.text,
    take: () => tokens[i++],
    accept: (t) => (tokens[i]?.text === t ? (i++, true) : false),
    skipStatement() {
      let depth = 0;
      while (i < tokens.length) {
        const t = tokens[i++].text;
        if (t === '{' || t === '[' || t === '(') depth++;
        else if (t === '}' || t === ']' || t === ')') {
          depth--;
          if (depth <= 0 && t === '}') {
            cursor.accept(';');
            return;
          }
        } else if (t === ';' && depth <= 0) return;
      }
    },
    skipTo(end) {
      let depth = 0;
      while (i < tokens.length && !(depth === 0 && end.has(tokens[i].text))) {
        const t = tokens[i++].text;
        if (t === '{' || t === '[') depth++;
        else if (t === '}' || t === ']') depth--;
      }
    },
    readTypeName() {
      const at = tokens[i]?.at;
      let name = cursor.accept('.') ? '.' : '';
      while (tokens[i]?.kind === 'ident') {
        name += tokens[i++].text;
        if (tokens[i]?.text !== '.') break;
        name += tokens[i++].text;
      }
      return { name, at };
    },
    readLiteral() {
      const negative = cursor.accept('-');
      const token = tokens[i++];
      if (!token) return undefined;
      if (token.kind !== 'string') return { negative, token };
      const parts = [token.bytes!];
      while (tokens[i]?.kind === 'string') parts.push(tokens[i++].bytes!);
      return { negative, token, bytes: concat(parts) };
    },
  };
  return cursor;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}
