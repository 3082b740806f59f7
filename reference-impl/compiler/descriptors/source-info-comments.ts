// Where a comment goes, decided the way protoc 3.21's tokenizer decides it while it moves
// from one token to the next (io/tokenizer.cc, CommentCollector): the most recent comment
// is held back until it is known whether it trails the previous token, stands alone
// (detached), or leads the next one.

export interface GapComments {
  /** Comment on the previous token's line (or the block right after it): it trails that token. */
  trailing: string;
  /** Comments separated from both tokens by blank lines, in order. */
  detached: string[];
  /** The comment right above the next token: it leads it. */
  leading: string;
}

export interface CommentCollector {
  /** A line comment joins a run of line comments; after a block comment it starts anew. */
  lineComment(text: string): void;
  blockComment(text: string): void;
  /** The held comment is not the next token's: it trails the previous one if it still can, else it is detached. */
  flush(): void;
  /** From here on nothing can trail the previous token (a blank line, or the file's start). */
  detachFromPrevious(): void;
  /** Forgets the held comment: a block comment followed by a token on its own line belongs to neither. */
  clear(): void;
  /** What the gap gave; the held comment leads the next token. */
  finish(): GapComments;
}

export function createCommentCollector(): CommentCollector {
  const result: GapComments = { trailing: '', detached: [], leading: '' };
  let buffer = '';
  // True once a comment was read, even an empty one (`/**/`), which still counts.
  let held = false;
  let heldIsLine = false;
  let canTrail = true;

  const collector: CommentCollector = {
    lineComment(text) {
      if (held && !heldIsLine) collector.flush();
      held = true;
      heldIsLine = true;
      buffer += text;
    },
    blockComment(text) {
      if (held) collector.flush();
      held = true;
      heldIsLine = false;
      buffer = text;
    },
    flush() {
      if (!held) return;
      if (canTrail) {
        result.trailing += buffer;
        canTrail = false;
      } else result.detached.push(buffer);
      collector.clear();
    },
    detachFromPrevious() {
      canTrail = false;
    },
    clear() {
      buffer = '';
      held = false;
    },
    finish() {
      if (held) result.leading = buffer;
      return result;
    },
  };
  return collector;
}
