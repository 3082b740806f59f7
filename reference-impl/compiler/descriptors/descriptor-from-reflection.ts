// protobufjs reflection objects of one file → the FileDescriptorProto protoc's parser would
// produce, before name resolution: type names as written (type unset for message and enum
// fields), map fields with their synthesized XxxEntry messages, groups as lower-cased fields
// of TYPE_GROUP, proto3 `optional` with protoc's synthetic oneofs after the real ones.
import protobuf from 'protobufjs';
import { errorLine } from './descriptor-errors.js';
import type {
  EnumObject,
  EnumValueObject,
  FieldObject,
  FileObject,
  MessageObject,
  MethodObject,
  OptionsObject,
  RangeObject,
  ServiceObject,
} from './descriptor-object.js';
import { splitOptions, type OptionHolder } from './descriptor-options.js';
import { formatScalarDefault } from './descriptor-default-value.js';
import { checkJsonNames, checkNumbers } from './descriptor-field-checks.js';
import { mapEntryName, type ScannedOption } from './descriptor-source-scan.js';
import type { DraftField, FileDraft, ReflectedFile } from './descriptor-draft.js';
import { toJsonName } from './json-name-fill.js';
import { SCALAR_TYPES } from './source-info-walk.js';

// protoc's scalar type names but `group`, which protobufjs reads as a message field.
const SCALARS = new Set([...SCALAR_TYPES].filter((name) => name !== 'group'));
const LABELS: Record<string, FieldObject['label']> = { repeated: 'LABEL_REPEATED', required: 'LABEL_REQUIRED' };

export function draftFromReflection(input: ReflectedFile, descriptorRoot: protobuf.Root): FileDraft {
  const pkg = input.package ?? '';
  const file: FileObject = {
    name: input.name,
    dependency: input.imports.map((i) => i.name),
    public_dependency: input.imports.flatMap((i, index) => (i.kind === 'public' ? [index] : [])),
    weak_dependency: input.imports.flatMap((i, index) => (i.kind === 'weak' ? [index] : [])),
    message_type: [],
    enum_type: [],
    service: [],
    extension: [],
  };
  const draft: FileDraft = {
    file,
    proto3: input.proto3,
    scan: input.scan,
    fields: new Map(),
    methods: new Map(),
    pendingOptions: [],
    errors: [],
    optionErrors: [],
  };
  const full = (scope: string, name: string): string => (scope ? `${scope}.${name}` : name);
  const relative = (fullName: string): string => (pkg && fullName.startsWith(`${pkg}.`) ? fullName.slice(pkg.length + 1) : fullName);
  const fail = (key: string | undefined, text: string, at = key === undefined ? undefined : input.scan?.names.get(key)): void => {
    draft.errors.push(errorLine(input.name, at, text));
  };

  /** `relativeTo` scopes custom option names (protoc: the element's full name); `element` keys the scan. */
  const options = (
    holders: OptionHolder[],
    type: string,
    relativeTo: string,
    owner: { options?: OptionsObject },
    extra?: OptionsObject,
    element = relative(relativeTo),
  ): void => {
    const written = (name: string): ScannedOption | undefined => {
      const scanned = input.scan?.options;
      const found = scanned?.get(`${element}#${name}`) ?? [...(scanned ?? [])].find(([k]) => k.startsWith(`${element}#${name}`))?.[1];
      return found && input.lenientOptionValues ? { nameAt: found.nameAt, valueAt: found.valueAt } : found;
    };
    const split = splitOptions(holders, descriptorRoot.lookupType(`google.protobuf.${type}`), written);
    if (split.errors.length > 0) draft.optionErrors.push(errorLine(input.name, split.errors[0].at, split.errors[0].text));
    const merged = extra || split.options ? { ...extra, ...split.options } : undefined;
    if (merged) owner.options = merged;
    if (split.custom.length > 0) draft.pendingOptions.push({ owner, optionsType: type, relativeTo, custom: split.custom });
  };

  const field = (f: protobuf.Field, scope: string, parent: protobuf.Namespace): FieldObject => {
    const group = parent.nested?.[f.type];
    // protobufjs's parser marks group types with `group` (missing from its typings) and names
    // the group's field after the type with a lower-case first letter; protoc lower-cases it all.
    const isGroup =
      group instanceof protobuf.Type &&
      (group as { group?: boolean }).group === true &&
      f.name === f.type.charAt(0).toLowerCase() + f.type.slice(1);
    const name = isGroup ? f.type.toLowerCase() : f.name;
    const key = relative(full(scope, name));
    const out: FieldObject = { name, number: f.id, label: f.map ? 'LABEL_REPEATED' : (LABELS[f.rule ?? ''] ?? 'LABEL_OPTIONAL') };
    const literal = input.scan?.fields.get(key)?.defaultValue;
    const info: DraftField = { relativeTo: full(scope, name), key, literal };
    if (f.extend !== undefined) out.extendee = f.extend;
    if (f.map) out.type_name = mapEntryName(f.name);
    else if (isGroup) Object.assign(out, { type: 'TYPE_GROUP', type_name: f.type });
    else if (SCALARS.has(f.type)) out.type = `TYPE_${f.type.toUpperCase()}`;
    else out.type_name = f.type;
    const declaredDefault = f.options?.default;
    if (declaredDefault !== undefined) {
      if (input.proto3) fail(key, 'Explicit default values are not allowed in proto3.', literal?.token.at);
      else if (!out.type) info.enumDefault = String(declaredDefault);
      else {
        const formatted = formatScalarDefault(out.type, literal, declaredDefault);
        if ('error' in formatted) fail(key, formatted.error, literal?.token.at);
        else out.default_value = formatted.text;
      }
    }
    out.json_name = typeof f.options?.json_name === 'string' ? f.options.json_name : toJsonName(name);
    options([f], 'FieldOptions', full(scope, name), out);
    if (f.options?.proto3_optional === true) out.proto3_optional = true;
    draft.fields.set(out, info);
    return out;
  };

  const mapEntry = (f: protobuf.MapField, scope: string): MessageObject => {
    const name = mapEntryName(f.name);
    const entryScope = full(scope, name);
    const key: FieldObject = { name: 'key', number: 1, label: 'LABEL_OPTIONAL', type: `TYPE_${f.keyType.toUpperCase()}`, json_name: 'key' };
    const value: FieldObject = { name: 'value', number: 2, label: 'LABEL_OPTIONAL', json_name: 'value' };
    if (SCALARS.has(f.type)) value.type = `TYPE_${f.type.toUpperCase()}`;
    else value.type_name = f.type;
    // protoc reports an unknown map value type without a position (the entry is synthetic); no key into the scan does the same.
    draft.fields.set(key, { relativeTo: `${entryScope}.key`, key: '' });
    draft.fields.set(value, { relativeTo: `${entryScope}.value`, key: '' });
    return { ...emptyMessage(name), field: [key, value], options: { map_entry: true } };
  };

  const message = (t: protobuf.Type, scope: string): MessageObject => {
    const fullName = full(scope, t.name);
    const out = emptyMessage(t.name);
    const fields = t.fieldsArray.filter((f) => !f.declaringField);
    const realOneofs = t.oneofsArray.filter((o) => !o.fieldsArray.some((f) => f.options?.proto3_optional === true));
    out.oneof_decl = realOneofs.map((o) => {
      const decl: { name: string; options?: OptionsObject } = { name: o.name };
      options([o], 'OneofOptions', full(fullName, o.name), decl);
      return decl;
    });
    out.field = fields.map((f) => {
      const object = field(f, fullName, t);
      const oneof = f.partOf ? realOneofs.indexOf(f.partOf) : -1;
      if (oneof >= 0) object.oneof_index = oneof;
      return object;
    });
    addSyntheticOneofs(out);
    if (input.proto3) checkJsonNames(out, (name, text) => fail(relative(full(fullName, name)), text));

    const nestedTypes = new Map<string, MessageObject>();
    for (const n of t.nestedArray) {
      if (n instanceof protobuf.Type) nestedTypes.set(n.name, message(n, fullName));
      else if (n instanceof protobuf.Enum) out.enum_type.push(enumType(n, fullName));
      else if (n instanceof protobuf.Field) out.extension.push(field(n, fullName, t));
    }
    for (const f of fields) if (f instanceof protobuf.MapField) nestedTypes.set(mapEntryName(f.name), mapEntry(f, fullName));
    out.nested_type = inDeclarationOrder(nestedTypes, input.scan?.nestedTypes.get(relative(fullName)));
    out.extension_range = (t.extensions ?? []).map(([start, end]) => ({ start, end: end + 1 }));
    out.reserved_range = (t.reserved ?? []).filter((r): r is number[] => Array.isArray(r)).map(([start, end]) => ({ start, end: end + 1 }));
    out.reserved_name = (t.reserved ?? []).filter((r): r is string => typeof r === 'string');
    const key = (field: string): string => relative(full(fullName, field));
    checkNumbers(
      out,
      fullName,
      {
        number: (field) => input.scan?.fields.get(key(field))?.numberAt,
        name: (field) => input.scan?.names.get(key(field)),
        extensionRange: (index) => input.scan?.extensionRanges.get(relative(fullName))?.[index],
      },
      (text, at) => fail(undefined, text, at),
    );
    options([t], 'MessageOptions', fullName, out);
    if (out.options?.message_set_wire_format === true) {
      // protoc: `to max` ends a message set's range at the largest int32, not after the largest field number.
      const toMax = (kind: string, index: number): boolean =>
        input.scan?.rangesToMax.has(`${relative(fullName)}#${kind}#${index}`) === true;
      out.extension_range.forEach((r, i) => toMax('extensions', i) && (r.end = 2147483647));
      out.reserved_range.forEach((r, i) => toMax('reserved', i) && (r.end = 2147483647));
    }
    return out;
  };

  const enumType = (e: protobuf.Enum, scope: string): EnumObject => {
    const fullName = full(scope, e.name);
    const out: EnumObject = { name: e.name, value: [], reserved_range: [], reserved_name: [] };
    for (const [name, number] of Object.entries(e.values)) {
      const value: EnumValueObject = { name, number };
      options(
        [{ options: e.valuesOptions?.[name] }],
        'EnumValueOptions',
        full(scope, name),
        value,
        undefined,
        relative(`${fullName}.${name}`),
      );
      out.value.push(value);
    }
    if (out.value.length === 0) fail(relative(fullName), 'Enums must contain at least one value.');
    if (input.proto3 && out.value.length > 0 && out.value[0].number !== 0) {
      fail(undefined, 'The first enum value must be zero in proto3.', input.scan?.enumValues.get(relative(fullName))?.[0]?.numberAt);
    }
    const reserved = (e.reserved ?? []) as (number[] | string)[];
    out.reserved_range = reserved.filter((r): r is number[] => Array.isArray(r)).map(([start, end]): RangeObject => ({ start, end }));
    out.reserved_name = reserved.filter((r): r is string => typeof r === 'string');
    options([e], 'EnumOptions', fullName, out);
    return out;
  };

  const service = (s: protobuf.Service, scope: string): ServiceObject => {
    const fullName = full(scope, s.name);
    const out: ServiceObject = { name: s.name, method: [] };
    for (const m of s.methodsArray) {
      const method: MethodObject = { name: m.name, input_type: m.requestType, output_type: m.responseType };
      // protoc's parser makes a method's options when it meets `{`, so `rpc … {}` has empty ones.
      const hasBody = input.scan?.methods.get(relative(full(fullName, m.name)))?.hasBody === true;
      options([m], 'MethodOptions', full(fullName, m.name), method, hasBody ? {} : undefined);
      if (m.requestStream) method.client_streaming = true;
      if (m.responseStream) method.server_streaming = true;
      draft.methods.set(method, { relativeTo: full(fullName, m.name), key: relative(full(fullName, m.name)) });
      out.method.push(method);
    }
    options([s], 'ServiceOptions', fullName, out);
    return out;
  };

  if (pkg) file.package = pkg;
  const packageNamespace = pkg ? input.root.lookup(pkg) : input.root;
  const top = packageNamespace instanceof protobuf.Namespace ? packageNamespace : input.root;
  const topTypes = new Map<string, MessageObject>();
  for (const n of top.nestedArray) {
    if (n instanceof protobuf.Type) topTypes.set(n.name, message(n, pkg));
    else if (n instanceof protobuf.Enum) file.enum_type.push(enumType(n, pkg));
    else if (n instanceof protobuf.Service) file.service.push(service(n, pkg));
    else if (n instanceof protobuf.Field) file.extension.push(field(n, pkg, top));
  }
  file.message_type = inDeclarationOrder(topTypes, input.scan?.nestedTypes.get(''));
  const holders: OptionHolder[] = top === input.root ? [input.root] : [input.root, top];
  const hasOwnOptions = holders.some((h) => h.parsedOptions?.length || Object.keys(h.options ?? {}).length);
  // protoc resolves file options' names as if from an element of the package ("pkg.dummy").
  options(holders, 'FileOptions', pkg ? `${pkg}.dummy` : 'dummy', file, hasOwnOptions ? undefined : input.fallbackFileOptions, '');
  if (input.proto3) file.syntax = 'proto3';
  return draft;
}

function emptyMessage(name: string): MessageObject {
  return {
    name,
    field: [],
    extension: [],
    nested_type: [],
    enum_type: [],
    extension_range: [],
    oneof_decl: [],
    reserved_range: [],
    reserved_name: [],
  };
}

/** Orders by the scan's declaration order; anything the scan missed keeps protobufjs's order, after. */
function inDeclarationOrder(byName: Map<string, MessageObject>, order: string[] | undefined): MessageObject[] {
  const known = (order ?? []).filter((n) => byName.has(n));
  return [...new Set([...known, ...byName.keys()])].map((n) => byName.get(n)!);
}

/** protoc's parser: one oneof per proto3 `optional` field, after the real ones, named "_field" made unique with leading X's. */
function addSyntheticOneofs(message: MessageObject): void {
  const names = new Set([...message.field.map((f) => f.name), ...message.oneof_decl.map((o) => o.name)]);
  for (const f of message.field) {
    if (!f.proto3_optional) continue;
    let name = f.name.startsWith('_') ? f.name : `_${f.name}`;
    while (names.has(name)) name = `X${name}`;
    names.add(name);
    f.oneof_index = message.oneof_decl.length;
    message.oneof_decl.push({ name });
  }
}
