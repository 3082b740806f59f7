// Checks protoc 3.21 makes on a message's fields that protobufjs's parser does not (or
// only partly) make, with protoc's texts and positions.
import type { SourcePosition } from './descriptor-errors.js';
import type { MessageObject, RangeObject } from './descriptor-object.js';

const MAX_FIELD_NUMBER = 536870911;

export interface NumberPositions {
  number(field: string): SourcePosition | undefined;
  name(field: string): SourcePosition | undefined;
  extensionRange(index: number): SourcePosition | undefined;
}

/**
 * protoc's checks of field numbers: valid numbers, then fields inside extension or reserved
 * ranges and reserved names, then its hint of free numbers (at most 3, the smallest not
 * used by a field or a range) where the first problem is. protobufjs only catches a
 * reserved number or name declared before the field. protoc reports reserved ranges
 * without a position.
 */
export function checkNumbers(
  message: MessageObject,
  fullName: string,
  at: NumberPositions,
  fail: (text: string, at: SourcePosition | undefined) => void,
): void {
  const inRange = (n: number, ranges: RangeObject[]): RangeObject | undefined => ranges.find((r) => n >= r.start && n < r.end);
  const hints: (SourcePosition | undefined)[] = [];
  const problem = (text: string, where: SourcePosition | undefined): void => {
    hints.push(where);
    fail(text, where);
  };
  for (const f of message.field) {
    if (f.number <= 0) problem('Field numbers must be positive integers.', at.number(f.name));
    else if (f.number > MAX_FIELD_NUMBER) problem(`Field numbers cannot be greater than ${MAX_FIELD_NUMBER}.`, at.number(f.name));
    else if (f.number >= 19000 && f.number <= 19999)
      problem('Field numbers 19000 through 19999 are reserved for the protocol buffer library implementation.', at.number(f.name));
  }
  for (const f of message.field) {
    const extension = inRange(f.number, message.extension_range);
    if (extension) {
      const text = `Extension range ${extension.start} to ${extension.end - 1} includes field "${f.name}" (${f.number}).`;
      problem(text, at.extensionRange(message.extension_range.indexOf(extension)));
    }
    if (inRange(f.number, message.reserved_range)) problem(`Field "${f.name}" uses reserved number ${f.number}.`, undefined);
    if (message.reserved_name.includes(f.name)) fail(`Field name "${f.name}" is reserved.`, at.name(f.name));
  }
  const suggestions: number[] = [];
  const used = new Set(message.field.map((f) => f.number));
  for (let n = 1; suggestions.length < Math.min(3, hints.length); n++) {
    if (!used.has(n) && !inRange(n, message.extension_range) && !inRange(n, message.reserved_range)) suggestions.push(n);
  }
  if (suggestions.length > 0) fail(`Suggested field numbers for ${fullName}: ${suggestions.join(', ')}`, hints[0]);
}

export /** proto3 rejects field names that collide once lower-cased without underscores (protoc 3.21's rule and text). */
function checkJsonNames(message: MessageObject, fail: (field: string, text: string) => void): void {
  const seen = new Map<string, string>();
  for (const f of message.field) {
    const key = f.name.replace(/_/g, '').toLowerCase();
    const other = seen.get(key);
    if (other !== undefined)
      fail(f.name, `The JSON camel-case name of field "${f.name}" conflicts with field "${other}". This is not allowed in proto3.`);
    else seen.set(key, f.name);
  }
}
