// A copy-paste reproduction of a plugin case: `printf '<request bytes>' | <plugin>`.
// printf's format string takes \ooo octal escapes for any byte (POSIX), so the exact
// request travels inside the command with no file beside it.
import { shellWord } from '../core/shell-word.js';

/** Bytes as a printf format string: printable ASCII as itself (% and \ escaped), the rest as \ooo. */
export function printfFormat(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) {
    if (byte === 0x25) out += '%%';
    else if (byte === 0x5c) out += '\\\\';
    else if (byte === 0x27) out += '\\047';
    else if (byte >= 0x20 && byte < 0x7f) out += String.fromCharCode(byte);
    else out += `\\${byte.toString(8).padStart(3, '0')}`;
  }
  return out;
}

export function reproduceCommand(stdin: Uint8Array, command: string[]): string {
  return `printf '${printfFormat(stdin)}' | ${command.map(shellWord).join(' ')}`;
}
