// The plain-object shape of the google.protobuf.FileDescriptorProto the parser builds, in
// descriptor.proto's own spelling (snake_case, enum value names) so that protobufjs's
// fromObject encodes it directly with the bundled descriptor.proto loaded with keepCase.
// Absent means "not set", as in protoc's output: presence is what plugins see.

export type FieldLabel = 'LABEL_OPTIONAL' | 'LABEL_REQUIRED' | 'LABEL_REPEATED';

/** An options message (FileOptions, FieldOptions …): known fields by name, custom options as raw extension fields. */
export interface OptionsObject {
  [name: string]: unknown;
  /** Custom options (extensions of the options message), each one encoded field, tag included. */
  $unknowns?: Uint8Array[];
}

export interface FieldObject {
  name: string;
  number: number;
  label: FieldLabel;
  /** Unset until resolution when the field names a message or an enum, as in protoc's parser output. */
  type?: string;
  type_name?: string;
  extendee?: string;
  default_value?: string;
  oneof_index?: number;
  json_name?: string;
  options?: OptionsObject;
  proto3_optional?: boolean;
}

export interface RangeObject {
  start: number;
  end: number;
  /** Extension ranges only (ExtensionRangeOptions). */
  options?: OptionsObject;
}

export interface MessageObject {
  name: string;
  field: FieldObject[];
  extension: FieldObject[];
  nested_type: MessageObject[];
  enum_type: EnumObject[];
  extension_range: RangeObject[];
  oneof_decl: { name: string; options?: OptionsObject }[];
  options?: OptionsObject;
  reserved_range: RangeObject[];
  reserved_name: string[];
}

export interface EnumValueObject {
  name: string;
  number: number;
  options?: OptionsObject;
}

export interface EnumObject {
  name: string;
  value: EnumValueObject[];
  options?: OptionsObject;
  /** Inclusive ends, unlike messages' reserved ranges (descriptor.proto says so). */
  reserved_range: RangeObject[];
  reserved_name: string[];
}

export interface MethodObject {
  name: string;
  input_type: string;
  output_type: string;
  options?: OptionsObject;
  client_streaming?: boolean;
  server_streaming?: boolean;
}

export interface ServiceObject {
  name: string;
  method: MethodObject[];
  options?: OptionsObject;
}

/** google.protobuf.SourceCodeInfo.Location: 0-based line and column, the end line left out when it is the start line. */
export interface SourceLocationObject {
  path: number[];
  /** [start line, start column, end line, end column] or [line, start column, end column]. */
  span: number[];
  leading_comments?: string;
  trailing_comments?: string;
  leading_detached_comments: string[];
}

export interface FileObject {
  name: string;
  package?: string;
  dependency: string[];
  public_dependency: number[];
  weak_dependency: number[];
  message_type: MessageObject[];
  enum_type: EnumObject[];
  service: ServiceObject[];
  extension: FieldObject[];
  options?: OptionsObject;
  /** Positions and comments of the declarations (source-code-info.ts); absent for files without a source. */
  source_code_info?: { location: SourceLocationObject[] };
  /** Only "proto3": protoc 3.21 leaves it unset for proto2 files. */
  syntax?: string;
}
