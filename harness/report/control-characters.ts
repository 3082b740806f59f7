// A target's response bodies and the messages built from them can contain anything: NUL
// bytes, terminal colour codes, lone surrogates. XML 1.0 forbids most C0 controls outright
// (a JUnit file containing one is rejected whole by CI parsers), and in HTML or Markdown they
// render as garbage, so every renderer passes text through here before escaping it.

// Terminal colour and cursor sequences (CSI): Playwright's assertion messages carry them, and
// a reader wants the words, not "[31m".
const ANSI_CSI = /\u001b\[[0-?]*[ -/]*[@-~]/g;

// Everything XML 1.0 does not allow as a character: C0 controls other than tab, newline and
// carriage return; U+FFFE and U+FFFF; UTF-16 surrogates without their partner.
const FORBIDDEN =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** U+FFFD keeps the reader aware that something was there, unlike silently stripping it. */
export const REPLACEMENT_CHARACTER = '\ufffd';

export function replaceControlCharacters(text: string): string {
  return text.replace(ANSI_CSI, '').replace(FORBIDDEN, REPLACEMENT_CHARACTER);
}
