// protoc 3.21's command line (CommandLineInterface::ParseArguments, ParseArgument and
// InterpretArgument), with its texts:
// - `@FILE` arguments expand to the file's lines first (no nesting, no shell rules);
// - `--name=value`; `--name value` (the next argument, unless it starts with '-':
//   "Missing value for flag: NAME"); `-Xvalue` or `-X value` for one-letter flags;
//   flags protoc knows to take no value never consume the next argument;
// - `--NAME_out=[PARAMS:]DIR` splits at the FIRST ':'; each occurrence is its own run;
// - `--NAME_opt=V` values join with ',' per plugin and reach every run of that plugin,
//   wherever they stand; an opt without an `_out` or a `--plugin` of that name is
//   "Unknown flag: --NAME_opt", all of them reported, in plugin-name order;
// - `--plugin=protoc-gen-NAME=PATH` or `--plugin=PATH` (named after its basename);
// - `-I`/`--proto_path` take ':'-separated lists; a missing directory only warns;
// - `--descriptor_set_in` once, ':'-separated;
// - `--version` and `--help` stop parsing where they stand and exit 0.
// Decisions where touchstone differs:
// - protoc's built-in generators (--cpp_out ...) and modes other than running plugins
//   (-o, --encode, --decode ...) are refused with a clear message, not half-emulated;
// - `-IVIRTUAL=DISK` mappings are refused: the .proto parser takes plain directories;
// - four touchstone-only flags: --plugin_timeout, --plugin_output_limit, --compiler_version,
//   and --fault=NAME, --variant=NAME (repeatable: a built-in fault or variation, faults.ts, for
//   touchstone's kill matrix).
import { parseCompilerVersion, versionText } from './request/compiler-version.js';
import { isListed } from '../fault-list.js';
import { COMPILER_FAULTS, COMPILER_VARIANTS, type CompilerFault, type CompilerSwitches, type CompilerVariant } from './faults.js';
import { DEFAULT_PLUGIN_OUTPUT_LIMIT, DEFAULT_PLUGIN_TIMEOUT_MS } from './plugin-run/plugin-process.js';
import type { CompilerVersion } from './request/plugin-request.js';
import { PROTOC_USAGE } from './protoc-usage.js';

export interface OutputDirective {
  /** The flag as written, e.g. `--foo_out`: the prefix of every message about this run. */
  flag: string;
  /** protoc-gen-NAME */
  pluginName: string;
  /** The _out parameter and every _opt value, merged as protoc merges them. */
  parameter: string;
  location: string;
}

export interface ProtocInvocation {
  /** Plain import directories, in search order (the default "." already applied). */
  protoPaths: string[];
  descriptorSetIn: string[];
  inputs: string[];
  /** protoc-gen-NAME -> path, from --plugin. */
  plugins: Map<string, string>;
  outputs: OutputDirective[];
  compilerVersion?: CompilerVersion;
  timeoutMs: number;
  outputLimit: number;
  /** Built-in faults and variations switched on (none in real use). */
  switches: CompilerSwitches;
}

export type ArgsOutcome =
  | { kind: 'run'; invocation: ProtocInvocation; stderr: string }
  | { kind: 'exit'; code: 0 | 1; stdout: string; stderr: string };

export interface ArgsEnvironment {
  /** The content of an @argument file, or undefined when it cannot be read. */
  readArgumentFile(path: string): string | undefined;
  pathExists(path: string): boolean;
}

/** protoc 3.21's ParseArgument: the flags that never take the next argument as value. */
const NO_VALUE_FLAGS = new Set([
  '-h',
  '--help',
  '--disallow_services',
  '--include_imports',
  '--include_source_info',
  '--version',
  '--decode_raw',
  '--print_free_field_numbers',
  '--experimental_allow_proto3_optional',
  '--deterministic_output',
  '--fatal_warnings',
]);
const UNSUPPORTED_FLAGS = new Set([
  '-o',
  '--descriptor_set_out',
  '--dependency_out',
  '--include_imports',
  '--include_source_info',
  '--encode',
  '--decode',
  '--decode_raw',
  '--deterministic_output',
  '--print_free_field_numbers',
  '--disallow_services',
  '--direct_dependencies',
  '--direct_dependencies_violation_msg',
]);
/** Debian protoc 3.21.12's built-in generators: protoc never runs a plugin for these. */
const BUILT_IN_GENERATORS = new Set(['cpp', 'csharp', 'java', 'kotlin', 'objc', 'php', 'pyi', 'python', 'ruby']);
const PLUGIN_PREFIX = 'protoc-gen-';

/** protoc 3.21's PluginName: strip "--" and "_out"/"_opt" (4 characters), add the prefix. */
export function pluginNameOf(flag: string): string {
  return PLUGIN_PREFIX + flag.slice(2, flag.length - 4);
}

function expandArgumentFiles(args: string[], env: ArgsEnvironment): string[] | string {
  const expanded: string[] = [];
  for (const arg of args) {
    if (!arg.startsWith('@')) {
      expanded.push(arg);
      continue;
    }
    const content = env.readArgumentFile(arg.slice(1));
    if (content === undefined) return `Failed to open argument file: ${arg.slice(1)}\n`;
    // std::getline: one argument per line; a final newline does not start another one.
    const lines = content.split('\n');
    if (lines.at(-1) === '') lines.pop();
    expanded.push(...lines);
  }
  return expanded;
}

/** protoc's ParseArgument: name and value of one argument, and whether the next is its value. */
function splitArgument(arg: string): { name: string; value: string; needsValue: boolean } {
  if (!arg.startsWith('-') || arg === '-') return { name: '', value: arg, needsValue: false };
  if (arg.startsWith('--')) {
    const equals = arg.indexOf('=');
    if (equals >= 0) return { name: arg.slice(0, equals), value: arg.slice(equals + 1), needsValue: false };
    return { name: arg, value: '', needsValue: !NO_VALUE_FLAGS.has(arg) };
  }
  const name = arg.slice(0, 2);
  const value = arg.slice(2);
  return { name, value, needsValue: value === '' && !NO_VALUE_FLAGS.has(name) };
}

export function parseProtocArgs(args: string[], env: ArgsEnvironment): ArgsOutcome {
  let stderr = '';
  const fail = (text: string): ArgsOutcome => ({ kind: 'exit', code: 1, stdout: '', stderr: stderr + text });
  if (args.length === 0) return { kind: 'exit', code: 0, stdout: PROTOC_USAGE, stderr: '' };
  const expanded = expandArgumentFiles(args, env);
  if (typeof expanded === 'string') return fail(expanded);

  const protoPaths: string[] = [];
  // protoc keeps the names, empty ones dropped: a value of only ':' leaves none, as if not given.
  let descriptorSetIn: string[] = [];
  const inputs: string[] = [];
  const plugins = new Map<string, string>();
  const directives: { flag: string; parameter: string; location: string }[] = [];
  const pluginParameters = new Map<string, string>();
  const invocation: Partial<ProtocInvocation> = {};
  const switches = new Set<CompilerFault | CompilerVariant>();

  for (let i = 0; i < expanded.length; i++) {
    let { name, value, needsValue } = splitArgument(expanded[i]);
    if (needsValue) {
      if (i + 1 === expanded.length || expanded[i + 1].startsWith('-')) return fail(`Missing value for flag: ${name}\n`);
      value = expanded[++i];
    }

    if (name === '') {
      if (value === '') {
        return fail(
          'You seem to have passed an empty string as one of the arguments to touchstone protoc.  This is actually sort of hard to do.  ' +
            'Congrats.  Unfortunately it is not valid input so the program is going to die now.\n',
        );
      }
      inputs.push(value);
    } else if (name === '-I' || name === '--proto_path') {
      for (const part of value.split(':').filter((p) => p !== '')) {
        const equals = part.indexOf('=');
        let virtualPath = equals < 0 ? '' : part.slice(0, equals);
        let diskPath = equals < 0 ? part : part.slice(equals + 1);
        if (diskPath === '') return fail('--proto_path passed empty directory name.  (Use "." for current directory.)\n');
        if (!env.pathExists(diskPath)) {
          // protoc: "Try the original path; it may have just happened to have a '=' in it."
          if (env.pathExists(part)) [virtualPath, diskPath] = ['', part];
          else stderr += `${diskPath}: warning: directory does not exist.\n`;
        }
        if (virtualPath !== '')
          return fail(`${name}: ${part}: VIRTUAL=DISK mappings are not supported by touchstone protoc; give a plain directory\n`);
        protoPaths.push(diskPath);
      }
    } else if (name === '--descriptor_set_in') {
      if (descriptorSetIn.length > 0)
        return fail(
          `${name} may only be passed once. To specify multiple descriptor sets, pass them all as a single parameter separated by ':'.\n`,
        );
      if (value === '') return fail(`${name} requires a non-empty value.\n`);
      descriptorSetIn = value.split(':').filter((p) => p !== '');
    } else if (name === '--plugin') {
      const equals = value.indexOf('=');
      if (equals < 0) plugins.set(value.slice(value.lastIndexOf('/') + 1), value);
      else plugins.set(value.slice(0, equals), value.slice(equals + 1));
    } else if (name === '--version') {
      return { kind: 'exit', code: 0, stdout: versionText(), stderr };
    } else if (name === '-h' || name === '--help') {
      return { kind: 'exit', code: 0, stdout: PROTOC_USAGE, stderr };
    } else if (name === '--experimental_allow_proto3_optional' || name === '--fatal_warnings') {
      // 3.21 accepts the first for compatibility only; touchstone reports no warnings to make fatal.
    } else if (name === '--error_format') {
      if (value !== 'gcc') return fail(`${name}=${value}: touchstone protoc prints errors in the gcc format only\n`);
    } else if (name === '--plugin_timeout') {
      const seconds = Number(value);
      if (!(seconds > 0) || !Number.isFinite(seconds))
        return fail(`${name}: expected a number of seconds greater than 0, got "${value}"\n`);
      invocation.timeoutMs = seconds * 1000;
    } else if (name === '--plugin_output_limit') {
      if (!/^\d+$/.test(value) || Number(value) < 1) return fail(`${name}: expected a number of bytes greater than 0, got "${value}"\n`);
      invocation.outputLimit = Number(value);
    } else if (name === '--compiler_version') {
      const version = parseCompilerVersion(value);
      if (!version) return fail(`${name}: expected MAJOR.MINOR.PATCH or MAJOR.MINOR.PATCH-SUFFIX, got "${value}"\n`);
      invocation.compilerVersion = version;
    } else if (name === '--fault') {
      if (!isListed(COMPILER_FAULTS, value)) return fail(`${name}: unknown fault "${value}"; faults: ${COMPILER_FAULTS.join(', ')}\n`);
      switches.add(value);
    } else if (name === '--variant') {
      if (!isListed<CompilerVariant>(COMPILER_VARIANTS, value))
        return fail(`${name}: unknown variation "${value}"; variations: ${COMPILER_VARIANTS.join(', ') || 'none'}\n`);
      switches.add(value);
    } else if (UNSUPPORTED_FLAGS.has(name)) {
      return fail(`${name}: not supported by touchstone protoc, which only runs code-generator plugins\n`);
    } else if (name.endsWith('_out') || (name.startsWith('--') && name.endsWith('_opt'))) {
      const generator = name.slice(2, -4);
      if (BUILT_IN_GENERATORS.has(generator)) {
        return fail(
          `${name}: names protoc's built-in ${generator} generator; touchstone protoc has no built-in generators and runs plugins only\n`,
        );
      }
      if (name.endsWith('_out')) {
        // protoc also keeps a Windows absolute path (C:\...) whole; touchstone runs on POSIX.
        const colon = value.indexOf(':');
        directives.push(
          colon < 0
            ? { flag: name, parameter: '', location: value }
            : { flag: name, parameter: value.slice(0, colon), location: value.slice(colon + 1) },
        );
      } else {
        const key = pluginNameOf(name);
        const parameters = pluginParameters.get(key) ?? '';
        pluginParameters.set(key, parameters === '' ? value : `${parameters},${value}`);
      }
    } else {
      return fail(`Unknown flag: ${name}\n`);
    }
  }

  // std::map: plugin-name order. Every orphan is reported before failing.
  const orphans = [...pluginParameters.keys()]
    .filter((plugin) => !plugins.has(plugin) && !directives.some((d) => pluginNameOf(d.flag) === plugin))
    .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  if (orphans.length > 0) return fail(orphans.map((plugin) => `Unknown flag: --${plugin.slice(PLUGIN_PREFIX.length)}_opt\n`).join(''));
  if (protoPaths.length === 0 && descriptorSetIn.length === 0) protoPaths.push('.');
  if (inputs.length === 0) return fail('Missing input file.\n');
  if (directives.length === 0) return fail('Missing output directives.\n');

  const outputs = directives.map((d): OutputDirective => {
    const pluginName = pluginNameOf(d.flag);
    const opts = pluginParameters.get(pluginName) ?? '';
    // protoc appends the --NAME_opt values after the --NAME_out parameter; spec 3 knows no
    // --NAME_opt, and the variation puts them first.
    const joined = switches.has('compiler.opt-before-out-parameter') ? `${opts},${d.parameter}` : `${d.parameter},${opts}`;
    const parameter = d.parameter !== '' && opts !== '' ? joined : d.parameter + opts;
    return { flag: d.flag, pluginName, parameter, location: d.location };
  });
  return {
    kind: 'run',
    stderr,
    invocation: {
      protoPaths,
      descriptorSetIn,
      inputs,
      plugins,
      outputs,
      compilerVersion: invocation.compilerVersion,
      timeoutMs: invocation.timeoutMs ?? DEFAULT_PLUGIN_TIMEOUT_MS,
      outputLimit: invocation.outputLimit ?? DEFAULT_PLUGIN_OUTPUT_LIMIT,
      switches,
    },
  };
}
