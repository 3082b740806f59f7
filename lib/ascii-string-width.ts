// string-width as the compiled CLI uses it (bin/build.ts points yargs' and cliui's imports of
// `string-width` here). yargs lays out every help and usage text with it, and loading the
// real module costs `touchstone --help` about a third of its start: each of the two copies
// yargs brings (v8 and cliui's v7) creates an Intl.Segmenter when loaded (~7 ms each on this
// machine), and its first calls compile Unicode-property regular expressions. touchstone's
// texts are printable ASCII, whose width is their length; anything else (ANSI escapes, tabs,
// wide or combining characters) goes to the real string-width, loaded on first need.
// (ascii-string-width.test.ts checks both paths against the real module.)
import { createRequire } from 'node:module';

type StringWidth = (text: string, options?: Record<string, unknown>) => number;

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
let full: StringWidth | undefined;

export default function stringWidth(text: string, options?: Record<string, unknown>): number {
  if (typeof text === 'string' && PRINTABLE_ASCII.test(text)) return text.length;
  full ??= loadStringWidth();
  return full(text, options);
}

/** string-width as yargs has it installed (a dependency of yargs, not of touchstone). */
function loadStringWidth(): StringWidth {
  const yargs = createRequire(import.meta.url).resolve('yargs/package.json');
  return (createRequire(yargs)('string-width') as { default: StringWidth }).default;
}
