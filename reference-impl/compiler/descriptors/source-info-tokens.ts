// protoc 3.21's tokenizer (io/tokenizer.cc) as far as source_code_info needs it: tokens with
// protoc's 0-based positions, and for each gap between two tokens the comments that
// Tokenizer::NextWithComments hands out there. It works on the file's UTF-8 bytes because
// protoc's columns count bytes (a tab advances to the next multiple of 8), and it keeps
// comments exactly as protoc cuts them (the newline of a line comment included, a block
// comment's leading " *" of each line dropped). The parser decides which gaps' comments it
// uses: protoc's Next() drops them, NextWithComments() keeps them, and both end up after
// the same token, so one pass over the file serves both.
import { createCommentCollector, type GapComments } from './source-info-comments.js';

export type InfoTokenType = 'start' | 'identifier' | 'integer' | 'float' | 'string' | 'symbol' | 'end';

export interface InfoToken {
  type: InfoTokenType;
  /** As written; strings keep their quotes. */
  text: string;
  line: number;
  column: number;
  endColumn: number;
}

export interface TokenizedSource {
  /** A 'start' token (protoc's TYPE_START, at 0:0), the file's tokens, then an 'end' token. */
  tokens: InfoToken[];
  /** gaps[i]: the comments met on the way from tokens[i - 1] to tokens[i]; gaps[0] is empty. */
  gaps: GapComments[];
}

const TAB_WIDTH = 8;
const NEWLINE = 0x0a;
const isWhitespaceNoNewline = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0b || c === 0x0c;
const isLetter = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isHex = (c: number): boolean => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
const code = (s: string): number => s.charCodeAt(0);

type CommentStart = 'line' | 'block' | 'slash' | 'none';

export function tokenizeForSourceInfo(source: string): TokenizedSource {
  const bytes = new TextEncoder().encode(source);
  const decoder = new TextDecoder();
  let pos = 0;
  let line = 0;
  let column = 0;

  const current = (): number => (pos < bytes.length ? bytes[pos] : 0);
  const atEnd = (): boolean => pos >= bytes.length;
  const nextChar = (): void => {
    const c = bytes[pos];
    if (c === NEWLINE) {
      line++;
      column = 0;
    } else if (c === 0x09) column += TAB_WIDTH - (column % TAB_WIDTH);
    else column++;
    pos++;
  };
  const tryConsume = (c: number): boolean => {
    if (atEnd() || current() !== c) return false;
    nextChar();
    return true;
  };
  const consumeWhile = (test: (c: number) => boolean): void => {
    while (!atEnd() && test(current())) nextChar();
  };
  const text = (from: number, to: number): string => decoder.decode(bytes.subarray(from, to));

  const slash = (): InfoToken => ({ type: 'symbol', text: '/', line, column: column - 1, endColumn: column });
  const commentStart = (): CommentStart => {
    if (!tryConsume(code('/'))) return 'none';
    if (tryConsume(code('/'))) return 'line';
    if (tryConsume(code('*'))) return 'block';
    return 'slash';
  };

  /** After `//`: the rest of the line and its newline. */
  const lineComment = (): string => {
    const start = pos;
    while (!atEnd() && current() !== NEWLINE) nextChar();
    tryConsume(NEWLINE);
    return text(start, pos);
  };

  /** After `/*`: each line's text with its newline, without the whitespace and `*` starting the next line. */
  const blockComment = (): string => {
    const parts: string[] = [];
    let start = pos;
    for (;;) {
      while (!atEnd() && ![code('*'), code('/'), NEWLINE].includes(current())) nextChar();
      if (tryConsume(NEWLINE)) {
        parts.push(text(start, pos));
        consumeWhile(isWhitespaceNoNewline);
        if (tryConsume(code('*')) && tryConsume(code('/'))) return parts.join('');
        start = pos;
      } else if (tryConsume(code('*')) && tryConsume(code('/'))) {
        parts.push(text(start, pos - 2));
        return parts.join('');
      } else if (tryConsume(code('/'))) {
        // A "/*" inside is an error for protoc; the file was accepted, so this is a lone '/'.
      } else if (atEnd()) {
        parts.push(text(start, pos));
        return parts.join('');
      }
    }
  };

  const number = (startedWithZero: boolean, startedWithDot: boolean): InfoTokenType => {
    let isFloat = false;
    if (startedWithZero && (tryConsume(code('x')) || tryConsume(code('X')))) consumeWhile(isHex);
    else if (startedWithZero && isDigit(current())) consumeWhile(isDigit);
    else {
      if (startedWithDot) isFloat = true;
      consumeWhile(isDigit);
      if (!startedWithDot && tryConsume(code('.'))) {
        isFloat = true;
        consumeWhile(isDigit);
      }
      if (tryConsume(code('e')) || tryConsume(code('E'))) {
        isFloat = true;
        if (!tryConsume(code('-'))) tryConsume(code('+'));
        consumeWhile(isDigit);
      }
    }
    return isFloat ? 'float' : 'integer';
  };

  const quoted = (delimiter: number): void => {
    while (!atEnd() && current() !== NEWLINE) {
      if (tryConsume(code('\\'))) {
        if (!atEnd() && current() !== NEWLINE) nextChar();
      } else if (tryConsume(delimiter)) return;
      else nextChar();
    }
  };

  /** protoc's Next(): the next token, comments skipped. */
  const next = (): InfoToken => {
    for (;;) {
      consumeWhile((c) => c === NEWLINE || isWhitespaceNoNewline(c));
      const start = commentStart();
      if (start === 'line') lineComment();
      else if (start === 'block') blockComment();
      else if (start === 'slash') return slash();
      else if (atEnd()) return { type: 'end', text: '', line, column, endColumn: column };
      else if (current() < 0x20)
        nextChar(); // a control character: an error for protoc, skipped
      else break;
    }
    const from = pos;
    const at = { line, column };
    let type: InfoTokenType = 'symbol';
    const c = current();
    nextChar();
    if (isLetter(c)) {
      consumeWhile((d) => isLetter(d) || isDigit(d));
      type = 'identifier';
    } else if (c === code('0')) type = number(true, false);
    else if (c === code('.')) type = isDigit(current()) ? (nextChar(), number(false, true)) : 'symbol';
    else if (isDigit(c)) type = number(false, false);
    else if (c === code('"') || c === code("'")) {
      quoted(c);
      type = 'string';
    }
    return { type, text: text(from, pos), ...at, endColumn: column };
  };

  /** protoc's NextWithComments(): the next token and where the comments on the way go. */
  const nextWithComments = (first: boolean): { token: InfoToken; gap: GapComments } => {
    const collector = createCommentCollector();
    const done = (token: InfoToken): { token: InfoToken; gap: GapComments } => ({ token, gap: collector.finish() });
    if (first) {
      // A UTF-8 byte order mark is skipped, its three bytes still counted as columns.
      if (tryConsume(0xef)) tryConsume(0xbb) && tryConsume(0xbf);
      collector.detachFromPrevious();
    } else {
      // A comment on the previous token's line trails it.
      consumeWhile(isWhitespaceNoNewline);
      const start = commentStart();
      if (start === 'line') {
        collector.lineComment(lineComment());
        collector.flush();
      } else if (start === 'block') {
        collector.blockComment(blockComment());
        consumeWhile(isWhitespaceNoNewline);
        if (!tryConsume(NEWLINE)) {
          // The next token is on the same line: no telling whose comment it is.
          collector.clear();
          return done(next());
        }
        collector.flush();
      } else if (start === 'slash') return done(slash());
      else if (!tryConsume(NEWLINE)) return done(next());
    }
    for (;;) {
      consumeWhile(isWhitespaceNoNewline);
      const start = commentStart();
      if (start === 'line') collector.lineComment(lineComment());
      else if (start === 'block') {
        collector.blockComment(blockComment());
        consumeWhile(isWhitespaceNoNewline);
        tryConsume(NEWLINE);
      } else if (start === 'slash') return done(slash());
      else if (tryConsume(NEWLINE)) {
        collector.flush();
        collector.detachFromPrevious();
      } else {
        const token = next();
        // Before the end of a scope a comment leads nothing.
        if (token.type === 'end' || token.text === '}' || token.text === ']' || token.text === ')') collector.flush();
        return done(token);
      }
    }
  };

  const tokens: InfoToken[] = [{ type: 'start', text: '', line: 0, column: 0, endColumn: 0 }];
  const gaps: GapComments[] = [{ trailing: '', detached: [], leading: '' }];
  do {
    const { token, gap } = nextWithComments(tokens.length === 1);
    tokens.push(token);
    gaps.push(gap);
  } while (tokens[tokens.length - 1].type !== 'end');
  return { tokens, gaps };
}
