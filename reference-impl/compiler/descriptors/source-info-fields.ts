// Locations of fields and of what hangs off a message (options, oneofs, extend blocks), in
// the order and with the spans protoc 3.21's parser records them (ParseMessageField,
// ParseOption, ParseOneof, ParseExtend in compiler/parser.cc); ranges are in source-info-ranges.ts.
// Paths are descriptor.proto field numbers: FieldDescriptorProto label 4, type 5,
// type_name 6, name 1, number 3, default_value 7, json_name 10, options 8.
import type { Recorder } from './source-info-cursor.js';
import type { InfoToken } from './source-info-tokens.js';
import { SourceInfoMismatch } from './source-info-cursor.js';
import {
  count,
  join,
  messageScope,
  SCALAR_TYPES,
  take,
  userDefinedType,
  type Count,
  type MessageScope,
  type OptionLiteral,
  type OptionNamePart,
  type OptionsTarget,
  type Walk,
} from './source-info-walk.js';

const UNINTERPRETED_OPTION = 999;
const LABELS = new Set(['optional', 'repeated', 'required']);

/** Where a field is declared: its location, where a group's message goes, and the scope it is named in. */
export interface FieldSite {
  recorder: Recorder;
  /** The location a group's message location is made from (the message's or the file's). */
  parent: Recorder;
  /** nested_type (3) in a message, message_type (4) in the file. */
  nestedFieldNumber: number;
  nested: Count;
  /** The full name of the scope the field is named in (its message, or an extend block's scope). */
  scope: string;
  /** False in a oneof, where protoc takes no label. */
  labels: boolean;
}

/** ParseOption: `option a.(b.c).d = value;` as a statement, or `a = value` inside `[…]`. */
export function option(w: Walk, target: OptionsTarget, optionsRecorder: Recorder, statement: boolean): void {
  const { c } = w;
  const location = c.open(optionsRecorder, [UNINTERPRETED_OPTION, take(target.count)]);
  if (statement) c.consume('option');
  const name: OptionNamePart[] = [];
  const nameLocation = c.open(location, [2]);
  const part = (): void => {
    const partLocation = c.open(nameLocation, [name.length]);
    if (c.tryConsume('(')) {
      const inner = c.open(partLocation, [1]);
      let text = c.lookingAtType('identifier') ? c.consumeType('identifier').text : '';
      while (c.tryConsume('.')) text += `.${c.consumeType('identifier').text}`;
      c.close(inner);
      c.consume(')');
      name.push({ name: text, extension: true });
    } else {
      const inner = c.open(partLocation, [1]);
      name.push({ name: c.consumeType('identifier').text, extension: false });
      c.close(inner);
    }
    c.close(partLocation);
  };
  part();
  while (c.tryConsume('.')) part();
  c.close(nameLocation);
  c.consume('=');
  const value = c.open(location, []);
  const negative = c.tryConsume('-');
  const first = c.current();
  // UninterpretedOption: identifier_value 3, positive_int_value 4, negative_int_value 5, double_value 6, string_value 7, aggregate_value 8.
  let literal: OptionLiteral;
  if (first.type === 'identifier' || first.type === 'integer' || first.type === 'float') {
    value.location.path.push(first.type === 'identifier' ? 3 : first.type === 'float' ? 6 : negative ? 5 : 4);
    literal = { kind: first.type, negative, text: first.text };
    c.next();
  } else if (first.type === 'string') {
    value.location.path.push(7);
    literal = { kind: 'string', negative, text: first.text, strings: c.consumeString() };
  } else if (c.lookingAt('{')) {
    value.location.path.push(8);
    literal = { kind: 'aggregate', negative, text: '{', tokens: aggregate(w) };
  } else throw new SourceInfoMismatch(`no option value at ${first.line + 1}:${first.column + 1}`);
  c.close(value);
  if (statement) c.endOfDeclaration(';', location);
  c.close(location);
  const at = (span: number[]) => ({ line: span[0] + 1, column: span[1] + 1 });
  w.options.push({
    location: location.location,
    target,
    name,
    value: literal,
    nameAt: at(nameLocation.location.span),
    valueAt: at(value.location.span),
  });
}

/** ParseUninterpretedBlock: a balanced `{ … }`; the tokens inside it. */
function aggregate({ c }: Walk): InfoToken[] {
  c.consume('{');
  const tokens: InfoToken[] = [];
  let depth = 1;
  while (!c.atEnd()) {
    if (c.lookingAt('{')) depth++;
    else if (c.lookingAt('}') && --depth === 0) {
      c.next();
      return tokens;
    }
    tokens.push(c.current());
    c.next();
  }
  return tokens;
}

/** ParseMessageField: [label] type name = number [options] (`;` or a group's body). */
export function messageField(w: Walk, site: FieldSite): void {
  const { c } = w;
  const { recorder } = site;
  const fieldStart = { line: recorder.location.span[0], column: recorder.location.span[1] };
  if (site.labels && LABELS.has(c.current().text)) {
    const label = c.open(recorder, [4]);
    c.next();
    c.close(label);
  }
  const type = c.open(recorder, []);
  let isMap = false;
  let scalar = false;
  if (c.tryConsume('map')) {
    // Only `map<` is a map; a type named `map` is a plain type name.
    if (c.lookingAt('<')) {
      isMap = true;
      c.consume('<');
      fieldType(w);
      c.consume(',');
      fieldType(w);
      c.consume('>');
    }
  } else if (SCALAR_TYPES.has(c.current().text)) {
    scalar = true;
    c.next();
  } else userDefinedType(c);
  const isGroup = scalar && c.previous().text === 'group';
  type.location.path.push(scalar ? 5 : 6);
  c.close(type);

  const nameToken = c.current();
  const name = c.open(recorder, [1]);
  c.consumeType('identifier');
  c.close(name);
  c.consume('=');
  const number = c.open(recorder, [3]);
  c.consumeType('integer');
  c.close(number);
  const fieldName = isGroup ? nameToken.text.toLowerCase() : nameToken.text;
  fieldOptions(w, { type: 'FieldOptions', scope: join(site.scope, fieldName), count: count() }, recorder, scalar);

  if (isGroup) {
    // A group is a field and a message at once: protoc gives the message a location that starts with the field.
    const group = c.open(site.parent, []);
    c.startAt(group, fieldStart);
    group.location.path.push(site.nestedFieldNumber, take(site.nested));
    const groupName = c.open(group, [1]);
    c.startAt(groupName, nameToken);
    c.endAt(groupName, nameToken);
    const typeName = c.open(recorder, [6]);
    c.startAt(typeName, nameToken);
    c.endAt(typeName, nameToken);
    if (!c.lookingAt('{')) throw new SourceInfoMismatch('a group without a body');
    w.messageBlock(messageScope(join(site.scope, nameToken.text)), group);
    c.close(group);
  } else c.endOfDeclaration(';', recorder);
  // The map's entry message is added after the field.
  if (isMap) take(site.nested);
}

function fieldType({ c }: Walk): void {
  if (SCALAR_TYPES.has(c.current().text)) c.next();
  else userDefinedType(c);
}

/** ParseFieldOptions: `[default = …, json_name = "…", name = value …]`. */
function fieldOptions(w: Walk, target: OptionsTarget, field: Recorder, scalar: boolean): void {
  const { c } = w;
  if (!c.lookingAt('[')) return;
  const options = c.open(field, [8]);
  c.consume('[');
  do {
    if (c.lookingAt('default')) {
      // Not an option: recorded on the field (default_value 7), after `default =`.
      c.consume('default');
      c.consume('=');
      const value = c.open(field, [7]);
      // A scalar's default may be negative; a message or enum type's is taken as one token.
      if (scalar) c.tryConsume('-');
      if (scalar && c.lookingAtType('string')) c.consumeString();
      else c.next();
      c.close(value);
    } else if (c.lookingAt('json_name')) {
      // Not an option either: json_name 10, once for `json_name = "…"` and once for the string.
      const jsonName = c.open(field, [10]);
      c.consume('json_name');
      c.consume('=');
      const value = c.open(jsonName, []);
      c.consumeString();
      c.close(value);
      c.close(jsonName);
    } else option(w, target, options, false);
  } while (c.tryConsume(','));
  c.consume(']');
  c.close(options);
}

/** ParseOneof: its fields are the message's (field 2 of the message), its options OneofOptions (2). */
export function oneof(w: Walk, message: MessageScope, messageRecorder: Recorder, recorder: Recorder): void {
  const { c } = w;
  c.consume('oneof');
  const name = c.open(recorder, [1]);
  const nameToken = c.consumeType('identifier');
  c.close(name);
  c.endOfDeclaration('{', recorder);
  const target: OptionsTarget = { type: 'OneofOptions', scope: join(message.fullName, nameToken.text), count: count() };
  do {
    if (c.lookingAt('option')) {
      const options = c.open(recorder, [2]);
      option(w, target, options, true);
      c.close(options);
      continue;
    }
    const field = c.open(messageRecorder, [2, take(message.field)]);
    messageField(w, {
      recorder: field,
      parent: messageRecorder,
      nestedFieldNumber: 3,
      nested: message.nested,
      scope: message.fullName,
      labels: false,
    });
    c.close(field);
  } while (!c.tryEndOfDeclaration('}', undefined));
}

/** ParseExtend: one location for the block (no index), then one per field, each with the extendee (2). */
export function extend(w: Walk, extension: Count, site: Omit<FieldSite, 'recorder' | 'labels'>, recorder: Recorder): void {
  const { c } = w;
  c.consume('extend');
  const start = c.current();
  userDefinedType(c);
  const end = c.previous();
  c.endOfDeclaration('{', recorder);
  do {
    if (c.atEnd()) throw new SourceInfoMismatch('an extend block without its end');
    const field = c.open(recorder, [take(extension)]);
    const extendee = c.open(field, [2]);
    c.startAt(extendee, start);
    c.endAt(extendee, end);
    messageField(w, { ...site, recorder: field, labels: true });
    c.close(field);
  } while (!c.tryEndOfDeclaration('}', undefined));
}
