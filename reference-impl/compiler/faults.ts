// Built-in faults of `touchstone protoc`: named deviations from spec 3, each switched at
// the one place where the compiler decides that behaviour. `touchstone protoc
// --fault=NAME` (repeatable, a touchstone-only flag) starts with some on. The kill matrix
// (`touchstone mutate`) runs the compiler cases with each fault on in turn.
// suites/faults/plugin-protocol.yaml says what each does and which requirement it breaks;
// a test holds that registry and this list equal.
export const COMPILER_FAULTS = [
  // the request (plugin-request.ts, protoc-driver.ts)
  'compiler.files-reversed',
  'compiler.imports-last',
  'compiler.relative-type-names',
  'compiler.proto-file-first',
  'compiler.parameter-dropped',
  'compiler.no-version',
  // running the generators (protoc-driver.ts)
  'compiler.generators-reversed',
  'compiler.plugin-exit-ignored',
  'compiler.partial-writes',
  // applying a response (apply-response.ts, output-location.ts, insertion-splice.ts)
  'compiler.continuation-dropped',
  'compiler.insertion-below-line',
  'compiler.insertion-unindented',
  'compiler.insertion-creates-file',
  'compiler.unsafe-names-written',
  'compiler.error-ignored',
  'compiler.duplicates-allowed',
  'compiler.proto3-optional-unchecked',
] as const;

export type CompilerFault = (typeof COMPILER_FAULTS)[number];
export type CompilerFaults = ReadonlySet<CompilerFault>;
