// Plain-object views of the plugin messages and of the parts of descriptor.proto the plugin
// reads. Field names keep the .proto spelling (snake_case) because the codec loads with
// keepCase: error messages, the spec and protoc's own text dumps then all use the same names.
// Repeated fields are optional so hand-built requests in tests need not spell out empty lists;
// enums are their value names ("TYPE_INT32"), or a number for a value this copy of
// descriptor.proto does not know (a newer compiler).

export type FieldType =
  | 'TYPE_DOUBLE'
  | 'TYPE_FLOAT'
  | 'TYPE_INT64'
  | 'TYPE_UINT64'
  | 'TYPE_INT32'
  | 'TYPE_FIXED64'
  | 'TYPE_FIXED32'
  | 'TYPE_BOOL'
  | 'TYPE_STRING'
  | 'TYPE_GROUP'
  | 'TYPE_MESSAGE'
  | 'TYPE_BYTES'
  | 'TYPE_UINT32'
  | 'TYPE_ENUM'
  | 'TYPE_SFIXED32'
  | 'TYPE_SFIXED64'
  | 'TYPE_SINT32'
  | 'TYPE_SINT64';

export type FieldLabel = 'LABEL_OPTIONAL' | 'LABEL_REQUIRED' | 'LABEL_REPEATED';

export interface FieldDescriptor {
  name?: string;
  number?: number;
  label?: FieldLabel | number;
  type?: FieldType | number;
  type_name?: string;
  extendee?: string;
  default_value?: string;
  oneof_index?: number;
  json_name?: string;
  proto3_optional?: boolean;
  options?: { deprecated?: boolean };
}

export interface OneofDescriptor {
  name?: string;
}

export interface EnumValueDescriptor {
  name?: string;
  number?: number;
  options?: { deprecated?: boolean };
}

export interface EnumDescriptor {
  name?: string;
  value?: EnumValueDescriptor[];
  options?: { deprecated?: boolean };
}

export interface MessageDescriptor {
  name?: string;
  field?: FieldDescriptor[];
  extension?: FieldDescriptor[];
  nested_type?: MessageDescriptor[];
  enum_type?: EnumDescriptor[];
  oneof_decl?: OneofDescriptor[];
  options?: { map_entry?: boolean; deprecated?: boolean };
}

export interface MethodDescriptor {
  name?: string;
  input_type?: string;
  output_type?: string;
  client_streaming?: boolean;
  server_streaming?: boolean;
  options?: { deprecated?: boolean };
}

export interface ServiceDescriptor {
  name?: string;
  method?: MethodDescriptor[];
  options?: { deprecated?: boolean };
}

export interface SourceLocation {
  path?: number[];
  leading_comments?: string;
  trailing_comments?: string;
}

export interface FileDescriptor {
  name?: string;
  package?: string;
  dependency?: string[];
  message_type?: MessageDescriptor[];
  enum_type?: EnumDescriptor[];
  service?: ServiceDescriptor[];
  extension?: FieldDescriptor[];
  source_code_info?: { location?: SourceLocation[] };
  syntax?: string;
  edition?: string | number;
}

export interface CompilerVersion {
  major?: number;
  minor?: number;
  patch?: number;
  suffix?: string;
}

export interface CodeGeneratorRequest {
  file_to_generate?: string[];
  parameter?: string;
  proto_file?: FileDescriptor[];
  compiler_version?: CompilerVersion;
}

export interface GeneratedFile {
  name?: string;
  insertion_point?: string;
  content?: string;
}

export interface CodeGeneratorResponse {
  error?: string;
  supported_features?: number;
  file: GeneratedFile[];
}

/** CodeGeneratorResponse.Feature.FEATURE_PROTO3_OPTIONAL: this plugin understands proto3 `optional`. */
export const FEATURE_PROTO3_OPTIONAL = 1;
