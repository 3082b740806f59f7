// The intermediate shapes of one file on its way from protobufjs to an encoded
// FileDescriptorProto: what the parse gave (ReflectedFile), and the draft descriptor with
// what resolution and option interpretation still need (FileDraft).
import type protobuf from 'protobufjs';
import type { SourcePosition } from './descriptor-errors.js';
import type { FieldObject, FileObject, MethodObject, OptionsObject } from './descriptor-object.js';
import type { CustomOption } from './descriptor-options.js';
import type { ScannedLiteral, SourceScan } from './descriptor-source-scan.js';
import type { OptionUse } from './source-info-walk.js';

export interface ReflectedFile {
  name: string;
  /** A root holding this file's declarations only. */
  root: protobuf.Root;
  package?: string;
  proto3: boolean;
  /** Import statements in order; `at` is where the statement starts, for protoc's import errors. */
  imports: { name: string; kind?: 'public' | 'weak'; at?: SourcePosition }[];
  /** Absent for well-known files protobufjs ships as JSON only. */
  scan?: SourceScan;
  /** The file's text, for its source_code_info; absent like `scan`. */
  source?: string;
  /** File options to use when the source has none (stripped well-known copies). */
  fallbackFileOptions?: Record<string, unknown>;
  /**
   * protobufjs's own copies (descriptor.proto) write enum-valued options quoted, which protoc
   * would reject; how values are written is only checked in other files.
   */
  lenientOptionValues?: boolean;
}

export interface DraftField {
  /** Full name of the field (no leading dot): protoc resolves its type relative to it. */
  relativeTo: string;
  /** Key into the scan (name relative to the package). */
  key: string;
  /** Enum defaults are checked once the enum is known. */
  enumDefault?: string;
  literal?: ScannedLiteral;
}

export interface PendingOptions {
  owner: { options?: OptionsObject };
  optionsType: string;
  relativeTo: string;
  custom: CustomOption[];
  /** The statements to apply, when known by position rather than by element (extension ranges). */
  statements?: OptionUse[];
}

export interface FileDraft {
  file: FileObject;
  proto3: boolean;
  scan?: SourceScan;
  fields: Map<FieldObject, DraftField>;
  methods: Map<MethodObject, { relativeTo: string; key: string }>;
  pendingOptions: PendingOptions[];
  /** Formatted protoc-style lines. */
  errors: string[];
  /**
   * Option errors, reported only when the file has no other errors and at most one per
   * element: protoc interprets options last, and stops at an element's first bad option.
   */
  optionErrors: string[];
}
