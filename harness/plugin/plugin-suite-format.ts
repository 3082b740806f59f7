// Types of the plugin suites (suites/plugin/*.yaml). plugin-suite.schema.json is the
// authority; the loader validates every file against it before these types apply.

/** A request built from fixture .proto files the way a compiler builds it. */
export interface PluginRequestSpec {
  /** file_to_generate: fixture files, relative to suites/plugin/fixtures. */
  files: string[];
  parameter?: string;
  /** Adds fields this spec does not list, as a newer compiler sends them. */
  unknown_fields?: boolean;
  /** Writes the proto_file entries before the other fields (legal on the wire). */
  proto_file_first?: boolean;
  /** Cuts the encoded request inside its last proto_file entry. */
  truncate?: boolean;
}

/** What goes on the plugin's stdin: a built request, text, or raw bytes in hex. */
export type PluginInput = { request: PluginRequestSpec } | { text: string } | { hex: string };

export interface PluginExpectation {
  exit?: 'zero' | 'nonzero';
  stderr?: 'nonempty';
  /** stdout is a CodeGeneratorResponse and every File in it is well-formed (see plugin-checks.ts). */
  response?: 'valid';
  /** CodeGeneratorResponse.error is absent or empty. */
  error?: 'empty';
  /** A second run with the same bytes gives the same stdout. */
  deterministic?: boolean;
}

export interface PluginCase {
  id: string;
  title: string;
  /** Requirement ids (plugin.*); the first is the one a failure of `exit`, `stderr` or `error` is attributed to. */
  requirements: string[];
  input: PluginInput;
  expect: PluginExpectation;
}

export interface PluginSuite {
  name: string;
  file: string;
  description?: string;
  cases: PluginCase[];
}
