// Field redaction for form-urlencoded bodies too big to hold in memory (sidecars over
// INLINE_TEXT_LIMIT): the values of secret fields are replaced as the body streams through,
// the way redaction.ts replaces them in an inline body (`key=placeholder`, the placeholder
// URL-encoded; an empty value stays empty). Memory stays bounded: a key is gathered up to
// MAX_KEY bytes (a longer one is no field name we know), a secret value up to MAX_HELD bytes
// to learn it; a longer secret value is still replaced, but not learnt (json-field-scrubber.ts
// decides the same).
import type { Scrubber } from './json-field-scrubber.js';

export interface FormFieldRules {
  /** Whether the field named `key` (decoded) holds a secret. */
  isSecret(key: string): boolean;
  /** The placeholder for the secret `value` (decoded; undefined: too long to learn) of field `key`. */
  hide(value: string | undefined, key: string): string;
}

export const isFormMediaType = (contentType: string): boolean => /^\s*application\/x-www-form-urlencoded\s*(?:;|$)/i.test(contentType);

/** A form part as text: `+` is a space, then percent-decoding (left as it is when malformed). */
export function decodeFormPart(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return part;
  }
}

const MAX_KEY = 4 * 1024;
const MAX_HELD = 64 * 1024;
const EQUALS = 0x3d;
const AMPERSAND = 0x26;

export function createFormFieldScrubber(rules: FormFieldRules, emit: (bytes: Buffer) => void): Scrubber {
  let phase: 'key' | 'value' | 'hidden' = 'key';
  let key: Buffer[] = [];
  let keyLength = 0;
  let secretKey = '';
  let held: Buffer[] = [];
  let heldLength = 0;
  let replaced = false;

  const endHidden = () => {
    if (heldLength > 0) {
      const value = heldLength > MAX_HELD ? undefined : decodeFormPart(Buffer.concat(held).toString('utf8'));
      emit(Buffer.from(encodeURIComponent(rules.hide(value, secretKey))));
      replaced = true;
    }
    held = [];
    heldLength = 0;
  };

  return {
    write(chunk) {
      let at = 0;
      while (at < chunk.length) {
        const amp = chunk.indexOf(AMPERSAND, at);
        if (phase === 'key') {
          const eq = chunk.indexOf(EQUALS, at);
          const stop = eq >= 0 && (amp < 0 || eq < amp) ? eq : amp;
          const end = stop < 0 ? chunk.length : stop;
          if (keyLength <= MAX_KEY) key.push(Buffer.from(chunk.subarray(at, end)));
          keyLength += end - at;
          emit(chunk.subarray(at, stop < 0 ? end : stop + 1));
          if (stop === eq && eq >= 0) {
            const name = keyLength <= MAX_KEY ? decodeFormPart(Buffer.concat(key).toString('utf8')) : undefined;
            phase = name !== undefined && rules.isSecret(name) ? 'hidden' : 'value';
            secretKey = name ?? '';
          }
          if (stop >= 0) {
            key = [];
            keyLength = 0;
          }
          at = stop < 0 ? chunk.length : stop + 1;
        } else {
          const end = amp < 0 ? chunk.length : amp;
          if (phase === 'value') emit(chunk.subarray(at, end));
          else {
            if (heldLength <= MAX_HELD) held.push(Buffer.from(chunk.subarray(at, end)));
            heldLength += end - at;
          }
          if (amp >= 0) {
            if (phase === 'hidden') endHidden();
            emit(chunk.subarray(amp, amp + 1));
            phase = 'key';
          }
          at = amp < 0 ? chunk.length : amp + 1;
        }
      }
    },
    flush() {
      if (phase === 'hidden') endHidden();
      phase = 'key';
    },
    get replaced() {
      return replaced;
    },
  };
}
