// Locations of extension ranges and reserved ranges and names, in the order and with the
// spans protoc 3.21's parser records them (ParseExtensions, ParseReserved in
// compiler/parser.cc). DescriptorProto.ExtensionRange and ReservedRange: start 1, end 2,
// (extension ranges) options 3.
import type { SourceLocationObject } from './descriptor-object.js';
import type { Recorder } from './source-info-cursor.js';
import { option } from './source-info-fields.js';
import { count, take, type Count, type MessageScope, type OptionsTarget, type Walk } from './source-info-walk.js';

/**
 * ParseExtensions: `extensions 1 to 5, 7 [opts];`. protoc parses the options once, for the
 * first range, into a scratch list, then copies those locations to every range of the statement.
 */
export function extensionRanges(w: Walk, message: MessageScope, recorder: Recorder): void {
  const { c } = w;
  c.consume('extensions');
  const first = message.extensionRange.n;
  numberRanges(w, recorder, message.extensionRange, false);
  if (c.lookingAt('[')) {
    const indexAt = recorder.location.path.length;
    const scratch: SourceLocationObject[] = [];
    const optionsBefore = w.options.length;
    const index = c.open(recorder, [0], scratch);
    const options = c.open(index, [3]);
    const target: OptionsTarget = { type: 'ExtensionRangeOptions', scope: message.fullName, count: count() };
    c.consume('[');
    do option(w, target, options, false);
    while (c.tryConsume(','));
    c.consume(']');
    c.close(options);
    c.close(index);
    const uses = w.options.splice(optionsBefore);
    const withIndex = (path: number[], i: number): number[] => path.map((p, k) => (k === indexAt ? i : p));
    for (let i = first; i < message.extensionRange.n; i++) {
      for (const location of scratch) {
        if (location.path.length === indexAt + 1) continue;
        c.locations.push({ ...structuredClone(location), path: withIndex(location.path, i) });
      }
      for (const use of uses) w.options.push({ ...use, location: { path: withIndex(use.location.path, i) } });
    }
  }
  c.endOfDeclaration(';', recorder);
}

/** ParseReserved of a message (ranges 9, names 10) or an enum (ranges 4, names 5, numbers may be negative). */
export function reserved(w: Walk, recorder: Recorder, ranges: Count, names: Count, kind: 'message' | 'enum'): void {
  const { c } = w;
  const start = c.current();
  c.consume('reserved');
  const isNames = c.lookingAtType('string');
  const fieldNumber = kind === 'message' ? (isNames ? 10 : 9) : isNames ? 5 : 4;
  const location = c.open(recorder, [fieldNumber]);
  c.startAt(location, start);
  if (isNames) {
    do {
      const name = c.open(location, [take(names)]);
      c.consumeString();
      c.close(name);
    } while (c.tryConsume(','));
  } else numberRanges(w, location, ranges, kind === 'enum');
  c.endOfDeclaration(';', location);
  c.close(location);
}

/** `a [to b|max], …`: each range with start (1) and end (2); a lone number is its own end. */
function numberRanges({ c }: Walk, recorder: Recorder, ranges: Count, signed: boolean): void {
  const integer = (): void => {
    if (signed) c.tryConsume('-');
    c.consumeType('integer');
  };
  do {
    const range = c.open(recorder, [take(ranges)]);
    const start = c.open(range, [1]);
    // protoc keeps the first token, so a lone negative number's end is its '-'.
    const startToken = c.current();
    integer();
    c.close(start);
    if (c.tryConsume('to')) {
      const end = c.open(range, [2]);
      if (!c.tryConsume('max')) integer();
      c.close(end);
    } else {
      const end = c.open(range, [2]);
      c.startAt(end, startToken);
      c.endAt(end, startToken);
    }
    c.close(range);
  } while (c.tryConsume(','));
}
