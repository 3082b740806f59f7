// Built-in faults of protoc-gen-touchstone: named deviations from spec 3, each switched at
// the one place where the plugin decides that behaviour. `protoc-gen-touchstone
// --fault=NAME` (repeatable) starts with some on; compilers pass no arguments, so a plugin
// run by protoc is always faultless. The kill matrix (`touchstone mutate`) runs the plugin
// cases with each fault on in turn. suites/faults/plugin-protocol.yaml says what each does
// and which requirement it breaks; a test holds that registry and this list equal.
export const PLUGIN_FAULTS = [
  // reading the request and answering (main.ts)
  'plugin.text-before-response',
  'plugin.proto-file-first-refused',
  'plugin.unknown-fields-refused',
  'plugin.empty-request-refused',
  'plugin.garbage-exit-zero',
  // what generate() answers (generate.ts)
  'plugin.schema-problem-exit-nonzero',
  'plugin.unknown-option-exit-1',
  'plugin.absolute-names',
  'plugin.first-chunk-unnamed',
  'plugin.insertion-point-without-name',
  'plugin.proto3-optional-not-advertised',
  'plugin.nondeterministic',
] as const;

export type PluginFault = (typeof PLUGIN_FAULTS)[number];
export type PluginFaults = ReadonlySet<PluginFault>;
