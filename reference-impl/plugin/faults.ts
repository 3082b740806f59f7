// Built-in faults of protoc-gen-touchstone: named deviations from spec 3, each switched at
// the one place where the plugin decides that behaviour. `protoc-gen-touchstone
// --fault=NAME` (repeatable) starts with some on; compilers pass no arguments, so a plugin
// run by protoc is always faultless. The kill matrix (`touchstone mutate`) runs the plugin
// cases with each fault on in turn. suites/faults/plugin-protocol.yaml says what each does
// and which requirement it breaks; a test holds that registry and this list equal.
export const PLUGIN_FAULTS = [
  // reading the request and answering (main.ts)
  'plugin.text-before-response',
  'plugin.unknown-fields-refused',
  'plugin.garbage-exit-zero',
  // what generate() answers (generate.ts)
  'plugin.schema-problem-exit-nonzero',
  'plugin.absolute-names',
  'plugin.first-chunk-unnamed',
  'plugin.insertion-point-without-name',
] as const;

export type PluginFault = (typeof PLUGIN_FAULTS)[number];

// Built-in variations: other choices where spec 3 leaves one open, switched the same way
// (`--variant=NAME`); the kill matrix runs the plugin cases with each on in turn and every
// case must judge it conforming. suites/variants/plugin-protocol.yaml says what each changes
// and the spec's words (or silence) that allow it.
export const PLUGIN_VARIANTS = [
  // reading the request (main.ts)
  'plugin.field-order-relied-on',
  'plugin.empty-request-refused',
  // what generate() answers (generate.ts)
  'plugin.unknown-option-on-stderr',
  'plugin.empty-request-declined',
  'plugin.features-not-advertised',
  'plugin.outputs-sorted-by-name',
  'plugin.output-stamped-per-run',
] as const;

export type PluginVariant = (typeof PLUGIN_VARIANTS)[number];
/** The faults and variations switched on. */
export type PluginSwitches = ReadonlySet<PluginFault | PluginVariant>;
