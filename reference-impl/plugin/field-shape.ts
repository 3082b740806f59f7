// How a field reads in .proto source: the label keyword the author wrote, the type as spelled
// there (fully qualified for named types, `map<K, V>` for map fields) and the real oneof it
// belongs to. Both outputs describe fields this way, and proto3 `optional` is decided here:
// protoc represents `optional int32 x` in proto3 as a member of a synthetic oneof `_x` with
// proto3_optional set, which is an implementation detail, not a oneof the author declared.
import type { FieldDescriptor, FileDescriptor, MessageDescriptor } from './descriptor-types.js';
import { displayTypeName, type SymbolTable } from './symbol-table.js';

export interface FieldShape {
  /** `optional`, `required`, `repeated`, or '' where the source has no keyword (proto3/editions singular, oneof members, maps). */
  label: 'optional' | 'required' | 'repeated' | '';
  /** `int32`, `pkg.Msg`, `map<string, pkg.Msg>`, `group pkg.Msg.Group`. */
  protoType: string;
  /** Key and value fields of a map field's synthetic entry message. */
  map?: { key: FieldDescriptor; value: FieldDescriptor };
  /** The declared (non-synthetic) oneof the field is a member of. */
  oneof?: string;
}

export function describeField(
  field: FieldDescriptor,
  owner: MessageDescriptor | undefined,
  file: FileDescriptor,
  symbols: SymbolTable,
): FieldShape {
  const map = mapEntryFields(field, symbols);
  if (map) return { label: '', protoType: `map<${typeSpelling(map.key, symbols)}, ${typeSpelling(map.value, symbols)}>`, map };
  const oneof =
    owner && field.oneof_index !== undefined && !isSyntheticOneof(owner, field.oneof_index)
      ? (owner.oneof_decl?.[field.oneof_index]?.name ?? `#${field.oneof_index}`)
      : undefined;
  return {
    label: labelKeyword(field, file, oneof !== undefined),
    protoType: typeSpelling(field, symbols),
    ...(oneof !== undefined ? { oneof } : {}),
  };
}

function labelKeyword(field: FieldDescriptor, file: FileDescriptor, inOneof: boolean): FieldShape['label'] {
  if (field.label === 'LABEL_REPEATED') return 'repeated';
  if (field.label === 'LABEL_REQUIRED') return 'required';
  if (field.proto3_optional) return 'optional';
  if (inOneof) return '';
  // proto2 is the default syntax (an absent or empty `syntax`); there every singular field says `optional`.
  const proto2 = file.syntax === undefined || file.syntax === '' || file.syntax === 'proto2';
  return proto2 ? 'optional' : '';
}

/** A oneof is synthetic when its member is a proto3 `optional` field (protoc gives each such field its own). */
export function isSyntheticOneof(message: MessageDescriptor, index: number): boolean {
  return (message.field ?? []).some((field) => field.oneof_index === index && field.proto3_optional === true);
}

/** The oneofs the author declared, with their members in field order. */
export function declaredOneofs(message: MessageDescriptor): { name: string; members: FieldDescriptor[] }[] {
  return (message.oneof_decl ?? []).flatMap((oneof, index) =>
    isSyntheticOneof(message, index)
      ? []
      : [{ name: oneof.name ?? `#${index}`, members: (message.field ?? []).filter((field) => field.oneof_index === index) }],
  );
}

function mapEntryFields(field: FieldDescriptor, symbols: SymbolTable): FieldShape['map'] {
  if (field.label !== 'LABEL_REPEATED') return undefined;
  const symbol = symbols.find(field.type_name);
  if (symbol?.kind !== 'message' || symbol.message.options?.map_entry !== true) return undefined;
  const fields = symbol.message.field ?? [];
  const key = fields.find((entry) => entry.number === 1);
  const value = fields.find((entry) => entry.number === 2);
  return key && value ? { key, value } : undefined;
}

function typeSpelling(field: FieldDescriptor, symbols: SymbolTable): string {
  if (field.type === 'TYPE_GROUP') return `group ${displayTypeName(field.type_name)}`;
  if (field.type === 'TYPE_MESSAGE' || field.type === 'TYPE_ENUM' || (field.type === undefined && field.type_name !== undefined)) {
    return displayTypeName(symbols.find(field.type_name)?.fullName ?? field.type_name);
  }
  return scalarTypeName(field.type);
}

/** `TYPE_SFIXED64` → `sfixed64`; a type number this descriptor.proto does not know is shown as such. */
export function scalarTypeName(type: FieldDescriptor['type']): string {
  if (typeof type === 'string') return type.replace(/^TYPE_/, '').toLowerCase();
  return type === undefined ? 'unknown' : `type ${type}`;
}

/** Whether a message is only the synthetic entry type of a map field (not shown as a message of its own). */
export function isMapEntry(message: MessageDescriptor): boolean {
  return message.options?.map_entry === true;
}
