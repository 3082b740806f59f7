// Text from bytes only when the bytes are valid UTF-8, so nothing is silently replaced by
// U+FFFD. A leading BOM is kept: it is part of the content a plugin sent.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The bytes as text, or undefined when they are not valid UTF-8. */
export function strictUtf8Text(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}
