// Built-in faults of `touchstone protoc`: named deviations from spec 3, each switched at
// the one place where the compiler decides that behaviour. `touchstone protoc
// --fault=NAME` (repeatable, a touchstone-only flag) starts with some on. The kill matrix
// (`touchstone mutate`) runs the compiler cases with each fault on in turn.
// suites/faults/plugin-protocol.yaml says what each does and which requirement it breaks;
// a test holds that registry and this list equal.
export const COMPILER_FAULTS = [
  // the request (plugin-request.ts, protoc-driver.ts)
  'compiler.imports-generated',
  'compiler.imports-last',
  'compiler.relative-type-names',
  'compiler.proto-file-first',
  'compiler.parameter-dropped',
  'compiler.no-version',
  // running the generators (protoc-driver.ts)
  'compiler.plugins-not-started',
  'compiler.generators-reversed',
  'compiler.plugin-exit-ignored',
  // applying a response (apply-response.ts, output-location.ts, insertion-splice.ts)
  'compiler.continuation-dropped',
  'compiler.insertion-below-line',
  'compiler.insertion-unindented',
  'compiler.insertion-creates-file',
  'compiler.error-ignored',
] as const;

export type CompilerFault = (typeof COMPILER_FAULTS)[number];

// Built-in variations: other choices where spec 3 leaves one open, switched the same way
// (`--variant=NAME`); the kill matrix runs the compiler cases with each on in turn and every
// case must judge it conforming. suites/variants/plugin-protocol.yaml says what each changes
// and the spec's words (or silence) that allow it.
export const COMPILER_VARIANTS = [
  // the request (protoc-args.ts, protoc-driver.ts, plugin-request.ts)
  'compiler.file-to-generate-sorted',
  'compiler.proto-file-by-depth',
  'compiler.source-file-descriptors',
  'compiler.empty-parameter-sent',
  'compiler.opt-before-out-parameter',
  // running the generators (protoc-driver.ts)
  'compiler.partial-output-kept',
  'compiler.failure-silent',
  'compiler.plugin-error-hidden',
  // applying a response (apply-response.ts, output-location.ts)
  'compiler.names-written-as-given',
  'compiler.unsafe-names-skipped',
  'compiler.insertion-missing-skipped',
  'compiler.duplicate-last-wins',
  'compiler.features-unchecked',
] as const;

export type CompilerVariant = (typeof COMPILER_VARIANTS)[number];
/** The faults and variations switched on. */
export type CompilerSwitches = ReadonlySet<CompilerFault | CompilerVariant>;
