// Colour on the console only where a person reads it: on a terminal, never with NO_COLOR set
// (no-color.org: present and not empty), always with FORCE_COLOR (not 0 or false) unless
// NO_COLOR says otherwise; TERM=dumb has none. The CLI decides once, for its own stdout, and
// hands the decision to the Playwright process that prints progress (RunConfig.colour).
import type { Outcome, Verdict } from '../core/results.js';

export function colourWanted(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && !['0', 'false'].includes(env.FORCE_COLOR)) return true;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

const CODES: Record<Outcome | Verdict, number> = {
  PASS: 32,
  FAIL: 31,
  WARN: 33,
  SKIP: 90,
  ERROR: 35,
  XFAIL: 36,
  conforming: 32,
  incomplete: 33,
  'non-conforming': 31,
};

/** `text` in the colour of `key` (an outcome or a verdict), or as it is without colour. */
export function paint(colour: boolean, key: Outcome | Verdict, text: string): string {
  return colour ? `\u001b[${CODES[key]}m${text}\u001b[39m` : text;
}
