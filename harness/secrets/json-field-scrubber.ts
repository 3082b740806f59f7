// Field redaction for JSON bodies too big to hold in memory (sidecars over INLINE_TEXT_LIMIT):
// a byte-level JSON scanner that replaces the values of secret fields as the body streams
// through it, the way redaction.ts replaces them in an inline body. Memory stays bounded: it
// keeps the path down to the current value and, for a value it replaces, at most
// MAX_HELD bytes of it (to learn the secret, so the rest of the traffic is swept of it too).
//
// Decisions where the brief is silent:
// - The scanner trusts the bytes to be JSON only as far as they are: at the first byte that
//   cannot continue a JSON text it stops scanning and passes the rest through as it came.
//   What it replaced before stays replaced (a secret field is a secret field even in a
//   truncated body).
// - A secret value longer than MAX_HELD is still replaced, but not learnt: it is not swept
//   from the other parts of the traffic (a megabyte "token" is not a credential anyone
//   echoes).
// - A body that ends inside a replaced value ends with the placeholder.
/** A step down a JSON value: an object key or an array index. */
export type PathStep = string | number;

/** What a body's field rules say of the value at a path (its last step is the key or index). */
export interface FieldRules {
  /** `field`: a secret field name (strings and numbers hidden; objects walked); `path`: a configured jsonPath (anything but null and booleans hidden). */
  decide(steps: readonly PathStep[]): 'field' | 'path' | undefined;
  /** The placeholder for a secret value found at `steps` (undefined: too long to learn). */
  hide(value: string | undefined, steps: readonly PathStep[]): string;
}

/** application/json and its structured-syntax kin (application/vnd.github+json, application/problem+json). */
export const isJsonMediaType = (contentType: string): boolean => /^\s*application\/(?:[^\s;/]*\+)?json\s*(?:;|$)/i.test(contentType);

const MAX_HELD = 64 * 1024;
const MAX_KEY = 4 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
/** Bytes of numbers, true, false and null. */
const isLiteralByte = (b: number) =>
  (b >= 0x30 && b <= 0x39) || b === 0x2d || b === 0x2b || b === 0x2e || b === 0x45 || (b >= 0x61 && b <= 0x7a);
const isNumberStart = (b: number) => b === 0x2d || (b >= 0x30 && b <= 0x39);

interface Frame {
  kind: 'object' | 'array';
  expect: 'key' | 'colon' | 'value' | 'comma';
}

type Shape = 'string' | 'literal' | 'nested';
type Zone =
  /** Inside a string that is kept: an object key (its bytes are gathered) or a plain value. */
  | { kind: 'string'; key: boolean; escaped: boolean }
  /** Inside a number or literal that is kept. */
  | { kind: 'literal' }
  /** Inside a value being replaced: its bytes are held (to learn it), not emitted. */
  | { kind: 'hidden'; shape: Shape; depth: number; inString: boolean; escaped: boolean };

export interface Scrubber {
  write(chunk: Buffer): void;
  /** The body ended. */
  flush(): void;
  /** Whether any value was replaced. */
  readonly replaced: boolean;
}

/** Next quote or backslash at or after `from`, or -1. */
function nextSpecial(chunk: Buffer, from: number): number {
  const quote = chunk.indexOf(QUOTE, from);
  const backslash = chunk.subarray(from, quote < 0 ? chunk.length : quote).indexOf(BACKSLASH);
  return backslash >= 0 ? from + backslash : quote;
}

export function createJsonFieldScrubber(rules: FieldRules, emit: (bytes: Buffer) => void): Scrubber {
  const frames: Frame[] = [];
  const steps: PathStep[] = [];
  let zone: Zone | undefined;
  let done = false; // the top-level value is complete
  let broken = false;
  let replaced = false;
  let key: Buffer[] = [];
  let keySize = 0;
  let held: Buffer[] = [];
  let heldSize = 0;
  // Per chunk: kept bytes not yet emitted start at emitFrom; a key or hidden value's bytes in this chunk start at segStart.
  let chunk: Buffer = Buffer.alloc(0);
  let emitFrom = 0;
  let segStart = 0;

  const gather = (into: Buffer[], size: number, cap: number, bytes: Buffer): number => {
    if (size + bytes.length <= cap) into.push(Buffer.from(bytes));
    return size + bytes.length;
  };

  function valueEnded(): void {
    const top = frames.at(-1);
    if (top) top.expect = 'comma';
    else done = true;
  }

  function closeContainer(): void {
    frames.pop();
    valueEnded();
  }

  function startHidden(shape: Shape, at: number): void {
    if (at > emitFrom) emit(chunk.subarray(emitFrom, at));
    segStart = at;
    zone = { kind: 'hidden', shape, depth: shape === 'nested' ? 1 : 0, inString: shape === 'string', escaped: false };
  }

  function endHidden(shape: Shape, end: number): void {
    heldSize = gather(held, heldSize, MAX_HELD, chunk.subarray(segStart, end));
    let value: string | undefined;
    if (heldSize <= MAX_HELD) {
      const raw = Buffer.concat(held).toString('utf8');
      try {
        value = shape === 'string' ? (JSON.parse(raw) as string) : shape === 'literal' ? raw : JSON.stringify(JSON.parse(raw));
      } catch {
        value = undefined;
      }
    }
    held = [];
    heldSize = 0;
    replaced = true;
    emit(Buffer.from(JSON.stringify(rules.hide(value, steps))));
    emitFrom = end;
    zone = undefined;
    valueEnded();
  }

  function endKey(end: number): void {
    keySize = gather(key, keySize, MAX_KEY, chunk.subarray(segStart, end));
    let name = '';
    if (keySize <= MAX_KEY) {
      try {
        name = JSON.parse(`"${Buffer.concat(key).toString('utf8')}"`) as string;
      } catch {
        name = '';
      }
    }
    key = [];
    keySize = 0;
    steps.push(name);
    frames.at(-1)!.expect = 'colon';
    zone = undefined;
  }

  /** A value starts with byte `b` at `i`; returns where scanning goes on. */
  function startValue(b: number, i: number): number {
    const decision = steps.length > 0 ? rules.decide(steps) : undefined;
    if (decision && b === QUOTE) return (startHidden('string', i), i + 1);
    if (decision && isNumberStart(b)) return (startHidden('literal', i), i);
    if (decision === 'path' && (b === OPEN_OBJECT || b === OPEN_ARRAY)) return (startHidden('nested', i), i + 1);
    if (b === QUOTE) zone = { kind: 'string', key: false, escaped: false };
    else if (b === OPEN_OBJECT) frames.push({ kind: 'object', expect: 'key' });
    else if (b === OPEN_ARRAY) {
      frames.push({ kind: 'array', expect: 'value' });
      steps.push(0);
    } else if (isLiteralByte(b)) zone = { kind: 'literal' };
    else broken = true;
    return i + 1;
  }

  /** One structural byte outside any string or literal; returns where scanning goes on (broken set when it cannot). */
  function structural(b: number, i: number): number {
    const top = frames.at(-1);
    if (!top) {
      if (done) broken = true;
      return done ? i : startValue(b, i);
    }
    if (top.kind === 'object') {
      if (top.expect === 'key' && b === QUOTE) {
        zone = { kind: 'string', key: true, escaped: false };
        segStart = i + 1;
        return i + 1;
      }
      if (top.expect === 'colon' && b === 0x3a) return ((top.expect = 'value'), i + 1);
      if (top.expect === 'value') return startValue(b, i);
      if (top.expect === 'comma' && b === 0x2c) {
        steps.pop();
        top.expect = 'key';
        return i + 1;
      }
      if (b === CLOSE_OBJECT && (top.expect === 'key' || top.expect === 'comma')) {
        if (top.expect === 'comma') steps.pop();
        closeContainer();
        return i + 1;
      }
    } else {
      if (b === CLOSE_ARRAY) {
        steps.pop();
        closeContainer();
        return i + 1;
      }
      if (top.expect === 'value') return startValue(b, i);
      if (b === 0x2c) {
        (steps[steps.length - 1] as number)++;
        top.expect = 'value';
        return i + 1;
      }
    }
    broken = true;
    return i;
  }

  function write(input: Buffer): void {
    if (broken) return emit(input);
    chunk = input;
    emitFrom = 0;
    segStart = 0;
    let i = 0;
    const n = chunk.length;
    while (i < n && !broken) {
      const z = zone;
      if (z?.kind === 'string' || (z?.kind === 'hidden' && z.inString)) {
        if (z.escaped) {
          z.escaped = false;
          i++;
          continue;
        }
        const j = nextSpecial(chunk, i);
        if (j < 0) {
          i = n;
          break;
        }
        i = j + 1;
        if (chunk[j] === BACKSLASH) z.escaped = true;
        else if (z.kind === 'string') {
          if (z.key) endKey(j);
          else {
            zone = undefined;
            valueEnded();
          }
        } else {
          z.inString = false;
          if (z.shape === 'string') endHidden('string', i);
        }
        continue;
      }
      const b = chunk[i];
      if (z?.kind === 'literal') {
        if (isLiteralByte(b)) {
          i++;
          continue;
        }
        zone = undefined;
        valueEnded();
      } else if (z?.kind === 'hidden') {
        if (z.shape === 'literal') {
          if (isLiteralByte(b)) i++;
          else endHidden('literal', i);
          continue;
        }
        i++;
        if (b === QUOTE) z.inString = true;
        else if (b === OPEN_OBJECT || b === OPEN_ARRAY) z.depth++;
        else if ((b === CLOSE_OBJECT || b === CLOSE_ARRAY) && --z.depth === 0) endHidden('nested', i);
        continue;
      }
      if (isSpace(b)) i++;
      else i = structural(b, i);
    }
    if (zone?.kind === 'hidden') heldSize = gather(held, heldSize, MAX_HELD, chunk.subarray(segStart));
    else {
      if (zone?.kind === 'string' && zone.key) keySize = gather(key, keySize, MAX_KEY, chunk.subarray(segStart));
      if (emitFrom < n) emit(chunk.subarray(emitFrom));
    }
    chunk = Buffer.alloc(0);
  }

  return {
    write,
    flush() {
      if (zone?.kind === 'hidden') {
        chunk = Buffer.alloc(0);
        segStart = 0;
        endHidden(zone.shape, 0);
      }
      zone = undefined;
    },
    get replaced() {
      return replaced;
    },
  };
}
