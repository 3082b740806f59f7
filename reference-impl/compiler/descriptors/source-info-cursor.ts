// The parser's side of protoc 3.21's source locations (compiler/parser.cc): a cursor over
// the tokens with protoc's Consume/TryConsume, its LocationRecorder (a location is added
// when the recorder is made, so locations come out in that order, and it ends at the
// previous token when closed unless told otherwise), and TryConsumeEndOfDeclaration, the
// one place comments are attached: at the `;` or `{` that ends a declaration, the comments
// before the declaration lead it, those after the `;`/`{` on its line trail it, and
// detached ones are carried to the next declaration.
import type { SourceLocationObject } from './descriptor-object.js';
import type { GapComments } from './source-info-comments.js';
import type { InfoToken, InfoTokenType, TokenizedSource } from './source-info-tokens.js';

/** One LocationRecorder: its location and the list it was added to. */
export interface Recorder {
  location: SourceLocationObject;
  sink: SourceLocationObject[];
}

/** The source did not read the way protoc's parser reads it: the caller gives up on source info. */
export class SourceInfoMismatch extends Error {}

export interface SourceInfoCursor {
  readonly locations: SourceLocationObject[];
  current(): InfoToken;
  previous(): InfoToken;
  lookingAt(text: string): boolean;
  lookingAtType(type: InfoTokenType): boolean;
  atEnd(): boolean;
  /** protoc's Next(): the comments before the next token are dropped. */
  next(): void;
  tryConsume(text: string): boolean;
  consume(text: string): void;
  consumeType(type: InfoTokenType): InfoToken;
  /** A string literal and those adjacent to it (protoc joins them). */
  consumeString(): InfoToken[];
  tryEndOfDeclaration(text: string, recorder: Recorder | undefined): boolean;
  endOfDeclaration(text: string, recorder: Recorder | undefined): void;
  /** The file's first token, with the comments before it held for the first declaration. */
  start(): void;
  /** A new recorder starting at the current token: parent's path plus `path`, in parent's list (or `sink`). */
  open(parent: Recorder | undefined, path: number[], sink?: SourceLocationObject[]): Recorder;
  /** The recorder going out of scope: it ends at the previous token unless it was ended already. */
  close(recorder: Recorder): void;
  startAt(recorder: Recorder, at: { line: number; column: number }): void;
  endAt(recorder: Recorder, token: InfoToken): void;
}

export function createSourceInfoCursor({ tokens, gaps }: TokenizedSource): SourceInfoCursor {
  const locations: SourceLocationObject[] = [];
  let index = 0;
  let upcomingLeading = '';
  let upcomingDetached: string[] = [];

  const current = (): InfoToken => tokens[index];
  const previous = (): InfoToken => tokens[Math.max(index - 1, 0)];
  /** Moves onto the next token and returns the comments met on the way. */
  const advance = (): GapComments => {
    if (index < tokens.length - 1) index++;
    return gaps[index];
  };
  const mismatch = (wanted: string): SourceInfoMismatch => {
    const t = current();
    return new SourceInfoMismatch(`expected ${wanted} at ${t.line + 1}:${t.column + 1}, found "${t.text}"`);
  };

  const attach = (location: SourceLocationObject, leading: string, trailing: string, detached: string[]): void => {
    if (leading !== '') location.leading_comments = leading;
    if (trailing !== '') location.trailing_comments = trailing;
    location.leading_detached_comments.push(...detached);
  };

  const endAt = (recorder: Recorder, token: InfoToken): void => {
    const span = recorder.location.span;
    if (token.line !== span[0]) span.push(token.line);
    span.push(token.endColumn);
  };

  const cursor: SourceInfoCursor = {
    locations,
    current,
    previous,
    lookingAt: (text) => current().text === text,
    lookingAtType: (type) => current().type === type,
    atEnd: () => current().type === 'end',
    next: () => void advance(),
    tryConsume(text) {
      if (current().text !== text) return false;
      advance();
      return true;
    },
    consume(text) {
      if (!cursor.tryConsume(text)) throw mismatch(`"${text}"`);
    },
    consumeType(type) {
      const token = current();
      if (token.type !== type) throw mismatch(`a token of type ${type}`);
      advance();
      return token;
    },
    consumeString() {
      const strings = [cursor.consumeType('string')];
      while (cursor.lookingAtType('string')) strings.push(cursor.consumeType('string'));
      return strings;
    },
    tryEndOfDeclaration(text, recorder) {
      if (current().text !== text) return false;
      const gap = advance();
      // The comments before this declaration were held when its first token was reached.
      const leading = upcomingLeading;
      upcomingLeading = gap.leading;
      if (recorder) {
        const detached = upcomingDetached;
        upcomingDetached = [...gap.detached];
        attach(recorder.location, leading, gap.trailing, detached);
      } else if (text === '}') upcomingDetached = [...gap.detached];
      else upcomingDetached.push(...gap.detached);
      return true;
    },
    endOfDeclaration(text, recorder) {
      if (!cursor.tryEndOfDeclaration(text, recorder)) throw mismatch(`"${text}"`);
    },
    start() {
      const gap = advance();
      upcomingDetached = [...gap.detached];
      upcomingLeading = gap.leading;
    },
    open(parent, path, sink = parent?.sink ?? locations) {
      const location: SourceLocationObject = {
        path: [...(parent?.location.path ?? []), ...path],
        span: [current().line, current().column],
        leading_detached_comments: [],
      };
      sink.push(location);
      return { location, sink };
    },
    close(recorder) {
      if (recorder.location.span.length <= 2) endAt(recorder, previous());
    },
    startAt(recorder, at) {
      recorder.location.span[0] = at.line;
      recorder.location.span[1] = at.column;
    },
    endAt,
  };
  return cursor;
}
