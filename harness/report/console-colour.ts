// Colour on the console only where a person reads it: on a terminal, never with NO_COLOR set
// (no-color.org: present and not empty), always with FORCE_COLOR (not 0 or false) unless
// NO_COLOR says otherwise; TERM=dumb has none. The CLI decides once, for its own stdout, and
// hands the decision to the Playwright process that prints progress (RunConfig.colour).
// The escape codes are node's own (util.styleText, Node.js 20.12+), not a package's: picocolors
// would add a dependency for six colours, and its own NO_COLOR/TTY test would be a second
// decision beside colourWanted's (styleText in Node.js 20 applies the style whenever asked).
import { styleText } from 'node:util';
import type { Outcome, Verdict } from '../core/results.js';

export function colourWanted(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && !['0', 'false'].includes(env.FORCE_COLOR)) return true;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

const COLOURS: Record<Outcome | Verdict, Parameters<typeof styleText>[0]> = {
  PASS: 'green',
  FAIL: 'red',
  WARN: 'yellow',
  SKIP: 'gray',
  ERROR: 'magenta',
  XFAIL: 'cyan',
  conforming: 'green',
  incomplete: 'yellow',
  'non-conforming': 'red',
};

/** `text` in the colour of `key` (an outcome or a verdict), or as it is without colour. */
export function paint(colour: boolean, key: Outcome | Verdict, text: string): string {
  return colour ? styleText(COLOURS[key], text) : text;
}
