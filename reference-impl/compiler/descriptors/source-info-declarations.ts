// Locations of a file's declarations, walked the way protoc 3.21's parser walks them
// (Parser::Parse, ParseTopLevelStatement, ParseMessageBlock, ParseEnumBlock,
// ParseServiceBlock in compiler/parser.cc): the file's location first (empty path, from
// its first token to its last), then each declaration as it is met. Paths use
// descriptor.proto's field numbers: FileDescriptorProto package 2, dependency 3,
// message_type 4, enum_type 5, service 6, extension 7, options 8, public_dependency 10,
// weak_dependency 11, syntax 12.
import type { SourceLocationObject } from './descriptor-object.js';
import { createSourceInfoCursor, SourceInfoMismatch, type Recorder } from './source-info-cursor.js';
import { extend, messageField, oneof, option } from './source-info-fields.js';
import { extensionRanges, reserved } from './source-info-ranges.js';
import type { TokenizedSource } from './source-info-tokens.js';
import {
  count,
  join,
  messageScope,
  take,
  userDefinedType,
  type MessageScope,
  type OptionUse,
  type OptionsTarget,
  type Walk,
} from './source-info-walk.js';

export interface WalkedFile {
  /** As protoc's parser leaves them, options still uninterpreted (path …, 999, index). */
  locations: SourceLocationObject[];
  options: OptionUse[];
}

/** `pkg` is the file's package: protoc names elements by it wherever the package statement stands. */
export function walkFile(tokens: TokenizedSource, pkg: string): WalkedFile {
  const c = createSourceInfoCursor(tokens);
  const w: Walk = { c, options: [], messageBlock: (message, recorder) => messageBlock(w, message, recorder) };
  const file = {
    message: count(),
    enumType: count(),
    service: count(),
    extension: count(),
    dependency: count(),
    public: count(),
    weak: count(),
  };
  // protoc resolves file options' names as if from an element of the package.
  const fileOptions: OptionsTarget = { type: 'FileOptions', scope: pkg ? `${pkg}.dummy` : 'dummy', count: count() };

  c.start();
  const root = c.open(undefined, []);
  if (c.lookingAt('syntax')) {
    const syntax = c.open(root, [12]);
    c.consume('syntax');
    c.consume('=');
    c.consumeString();
    c.endOfDeclaration(';', syntax);
    c.close(syntax);
  }
  while (!c.atEnd()) {
    if (c.tryEndOfDeclaration(';', undefined)) continue;
    const keyword = c.current().text;
    if (keyword === 'import') {
      const location = c.open(root, [3, take(file.dependency)]);
      c.consume('import');
      for (const [word, fieldNumber, seen] of [
        ['public', 10, file.public],
        ['weak', 11, file.weak],
      ] as const) {
        if (!c.lookingAt(word)) continue;
        const modifier = c.open(root, [fieldNumber, take(seen)]);
        c.next();
        c.close(modifier);
        break;
      }
      c.consumeString();
      c.endOfDeclaration(';', location);
      c.close(location);
      continue;
    }
    const location =
      keyword === 'message'
        ? c.open(root, [4, take(file.message)])
        : keyword === 'enum'
          ? c.open(root, [5, take(file.enumType)])
          : keyword === 'service'
            ? c.open(root, [6, take(file.service)])
            : keyword === 'extend'
              ? c.open(root, [7])
              : keyword === 'package'
                ? c.open(root, [2])
                : keyword === 'option'
                  ? c.open(root, [8])
                  : undefined;
    if (!location) throw new SourceInfoMismatch(`"${keyword}" where protoc wants a top-level statement`);
    if (keyword === 'message') messageDefinition(w, pkg, location);
    else if (keyword === 'enum') enumDefinition(w, pkg, location);
    else if (keyword === 'service') serviceDefinition(w, pkg, location);
    else if (keyword === 'extend')
      extend(w, file.extension, { parent: root, nestedFieldNumber: 4, nested: file.message, scope: pkg }, location);
    else if (keyword === 'option') option(w, fileOptions, location, true);
    else {
      c.consume('package');
      c.consumeType('identifier');
      while (c.tryConsume('.')) c.consumeType('identifier');
      c.endOfDeclaration(';', location);
    }
    c.close(location);
  }
  c.close(root);
  return { locations: c.locations, options: w.options };
}

function messageDefinition(w: Walk, scope: string, recorder: Recorder): void {
  const { c } = w;
  c.consume('message');
  const name = c.open(recorder, [1]);
  const nameToken = c.consumeType('identifier');
  c.close(name);
  messageBlock(w, messageScope(join(scope, nameToken.text)), recorder);
}

/**
 * The `{ … }` of a message or a group. DescriptorProto: field 2, nested_type 3, enum_type 4,
 * extension_range 5, extension 6, options 7, oneof_decl 8, reserved_range 9, reserved_name 10.
 */
function messageBlock(w: Walk, message: MessageScope, recorder: Recorder): void {
  const { c } = w;
  c.endOfDeclaration('{', recorder);
  while (!c.tryEndOfDeclaration('}', undefined)) {
    if (c.atEnd()) throw new SourceInfoMismatch('a message without its end');
    if (c.tryEndOfDeclaration(';', undefined)) continue;
    const keyword = c.current().text;
    if (keyword === 'reserved') {
      reserved(w, recorder, message.reservedRange, message.reservedName, 'message');
      continue;
    }
    const location =
      keyword === 'message'
        ? c.open(recorder, [3, take(message.nested)])
        : keyword === 'enum'
          ? c.open(recorder, [4, take(message.enumType)])
          : keyword === 'extensions'
            ? c.open(recorder, [5])
            : keyword === 'extend'
              ? c.open(recorder, [6])
              : keyword === 'option'
                ? c.open(recorder, [7])
                : keyword === 'oneof'
                  ? c.open(recorder, [8, take(message.oneof)])
                  : c.open(recorder, [2, take(message.field)]);
    if (keyword === 'message') messageDefinition(w, message.fullName, location);
    else if (keyword === 'enum') enumDefinition(w, message.fullName, location);
    else if (keyword === 'extensions') extensionRanges(w, message, location);
    else if (keyword === 'extend')
      extend(w, message.extension, { parent: recorder, nestedFieldNumber: 3, nested: message.nested, scope: message.fullName }, location);
    else if (keyword === 'option') option(w, message.options, location, true);
    else if (keyword === 'oneof') oneof(w, message, recorder, location);
    else
      messageField(w, {
        recorder: location,
        parent: recorder,
        nestedFieldNumber: 3,
        nested: message.nested,
        scope: message.fullName,
        labels: true,
      });
    c.close(location);
  }
}

/** EnumDescriptorProto: name 1, value 2, options 3, reserved_range 4, reserved_name 5; a value's name 1, number 2, options 3. */
function enumDefinition(w: Walk, scope: string, recorder: Recorder): void {
  const { c } = w;
  c.consume('enum');
  const name = c.open(recorder, [1]);
  const fullName = join(scope, c.consumeType('identifier').text);
  c.close(name);
  const options: OptionsTarget = { type: 'EnumOptions', scope: fullName, count: count() };
  const values = count();
  const reservedRanges = count();
  const reservedNames = count();
  c.endOfDeclaration('{', recorder);
  while (!c.tryEndOfDeclaration('}', undefined)) {
    if (c.atEnd()) throw new SourceInfoMismatch('an enum without its end');
    if (c.tryEndOfDeclaration(';', undefined)) continue;
    if (c.lookingAt('reserved')) {
      reserved(w, recorder, reservedRanges, reservedNames, 'enum');
      continue;
    }
    if (c.lookingAt('option')) {
      const location = c.open(recorder, [3]);
      option(w, options, location, true);
      c.close(location);
      continue;
    }
    const value = c.open(recorder, [2, take(values)]);
    const valueName = c.open(value, [1]);
    // Enum values are named as siblings of their enum (C++ scoping), and so are their options' scopes.
    const valueScope = join(scope, c.consumeType('identifier').text);
    c.close(valueName);
    c.consume('=');
    const number = c.open(value, [2]);
    c.tryConsume('-');
    c.consumeType('integer');
    c.close(number);
    if (c.lookingAt('[')) {
      const valueOptions = c.open(value, [3]);
      const target: OptionsTarget = { type: 'EnumValueOptions', scope: valueScope, count: count() };
      c.consume('[');
      do option(w, target, valueOptions, false);
      while (c.tryConsume(','));
      c.consume(']');
      c.close(valueOptions);
    }
    c.endOfDeclaration(';', value);
    c.close(value);
  }
}

/**
 * ServiceDescriptorProto: name 1, method 2, options 3. MethodDescriptorProto: name 1,
 * input_type 2, output_type 3, options 4 (one location per option statement),
 * client_streaming 5, server_streaming 6.
 */
function serviceDefinition(w: Walk, pkg: string, recorder: Recorder): void {
  const { c } = w;
  c.consume('service');
  const name = c.open(recorder, [1]);
  const fullName = join(pkg, c.consumeType('identifier').text);
  c.close(name);
  const options: OptionsTarget = { type: 'ServiceOptions', scope: fullName, count: count() };
  const methods = count();
  c.endOfDeclaration('{', recorder);
  while (!c.tryEndOfDeclaration('}', undefined)) {
    if (c.atEnd()) throw new SourceInfoMismatch('a service without its end');
    if (c.tryEndOfDeclaration(';', undefined)) continue;
    const isOption = c.lookingAt('option');
    const location = isOption ? c.open(recorder, [3]) : c.open(recorder, [2, take(methods)]);
    if (isOption) option(w, options, location, true);
    else method(w, fullName, location);
    c.close(location);
  }
}

function method(w: Walk, service: string, recorder: Recorder): void {
  const { c } = w;
  c.consume('rpc');
  const name = c.open(recorder, [1]);
  const fullName = join(service, c.consumeType('identifier').text);
  c.close(name);
  for (const [streaming, type] of [
    [5, 2],
    [6, 3],
  ]) {
    if (type === 3) c.consume('returns');
    c.consume('(');
    if (c.lookingAt('stream')) {
      const location = c.open(recorder, [streaming]);
      c.next();
      c.close(location);
    }
    const location = c.open(recorder, [type]);
    userDefinedType(c);
    c.close(location);
    c.consume(')');
  }
  if (!c.lookingAt('{')) {
    c.endOfDeclaration(';', recorder);
    return;
  }
  const target: OptionsTarget = { type: 'MethodOptions', scope: fullName, count: count() };
  c.endOfDeclaration('{', recorder);
  while (!c.tryEndOfDeclaration('}', undefined)) {
    if (c.atEnd()) throw new SourceInfoMismatch('method options without their end');
    if (c.tryEndOfDeclaration(';', undefined)) continue;
    const location = c.open(recorder, [4]);
    option(w, target, location, true);
    c.close(location);
  }
}
