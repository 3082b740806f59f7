// protoc's CEscape (strutil.cc, use_hex = false, utf8_safe = false), used in
// "Plugin output is unparseable: <stdout>": \n \r \t \" \' \\ by name, every other byte
// outside printable ASCII (isprint in the C locale: 0x20-0x7e) as three octal digits.
// Works on bytes, so invalid UTF-8 and non-ASCII text come out escaped exactly as protoc's.

const NAMED: Record<number, string> = { 0x0a: '\\n', 0x0d: '\\r', 0x09: '\\t', 0x22: '\\"', 0x27: "\\'", 0x5c: '\\\\' };

export function cEscape(bytes: Uint8Array): string {
  const parts: string[] = [];
  for (const byte of bytes) {
    const named = NAMED[byte];
    if (named !== undefined) parts.push(named);
    else if (byte >= 0x20 && byte < 0x7f) parts.push(String.fromCharCode(byte));
    else parts.push(`\\${byte.toString(8).padStart(3, '0')}`);
  }
  return parts.join('');
}
