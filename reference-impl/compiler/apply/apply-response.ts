// Applies one plugin's CodeGeneratorResponse to its output location, in the order of
// protoc 3.21's GeneratePluginOutput:
// 1. the Files in order: a non-empty insertion_point opens an insertion, else a non-empty
//    name opens a file, else the content continues the stream that is open (a plain file
//    or an insertion); a nameless first File is fatal. Opening closes the previous stream.
// 2. `error` non-empty: fatal, printed verbatim after "--NAME_out: ". It is checked after
//    the Files, so "First file chunk..." wins over it, and in 3.21 it short-circuits the
//    proto3-optional check (newer protoc reports both).
// 3. a file to generate with proto3 optional fields while the plugin lacks
//    FEATURE_PROTO3_OPTIONAL: fatal, with 3.21's text printed WITHOUT a newline, so the
//    "--NAME_out: " that follows (with an empty error) lands on the same line.
// The last stream closes after these checks and before the fatal line is printed, which
// is where its deferred message (if any) appears in protoc's stderr.
// Deferred errors (duplicates, bad insertions) mark the location and do not stop the run.
// Built-in faults and variations (faults.ts) of applying a response are switched here. The
// variations take other readings of what spec 3 leaves open: a File name the spec forbids
// the plugin is refused by default (output-name-rules.ts), written as given as protoc 3.21
// does (compiler.names-written-as-given), or skipped with a warning, its continuation chunks
// too, while the run goes on (compiler.unsafe-names-skipped); the proto3-optional check is
// protoc's and can be left out (compiler.features-unchecked).
import { NO_FAULTS } from '../../fault-list.js';
import type { CompilerSwitches } from '../faults.js';
import type { OutputLocation, OutputStream } from './output-location.js';
import { checkOutputName } from './output-name-rules.js';
import { FEATURE_PROTO3_OPTIONAL, type PluginResponse } from '../response/plugin-response.js';

export interface FileToGenerate {
  name: string;
  proto3Optional: boolean;
}

export interface ApplyContext {
  /** protoc-gen-NAME */
  pluginName: string;
  location: OutputLocation;
  /** The input files in command-line order. */
  filesToGenerate: FileToGenerate[];
  report: (text: string | Uint8Array) => void;
  switches?: CompilerSwitches;
}

/** undefined when the run succeeded; else the text protoc prints after "--NAME_out: ". */
export type ApplyResult = undefined | { fatal: string | Uint8Array };

export function proto3OptionalMessage(file: string, pluginName: string): string {
  return (
    `${file}: is a proto3 file that contains optional fields, but code generator ${pluginName} ` +
    `hasn't been updated to support optional fields in proto3. Please ask the owner of this code generator to support proto3 optional.`
  );
}

/** Where the chunks of a skipped File go (the variation compiler.unsafe-names-skipped). */
const DISCARDED: OutputStream = { append() {}, close() {} };

export function applyPluginResponse(response: PluginResponse, context: ApplyContext): ApplyResult {
  const { pluginName, location } = context;
  const switches = context.switches ?? NO_FAULTS;
  let current: OutputStream | undefined;
  const closeCurrent = () => {
    current?.close();
    current = undefined;
  };

  for (const file of response.files) {
    // Each field read once: a decoded File makes a view per read (plugin-response.ts).
    const { name, insertionPoint } = file;
    if (insertionPoint.length > 0 || name.length > 0) {
      closeCurrent();
      const checked = switches.has('compiler.names-written-as-given')
        ? { ok: true as const, name: Buffer.from(name).toString('utf8') }
        : checkOutputName(name, insertionPoint);
      if (!checked.ok && switches.has('compiler.unsafe-names-skipped')) {
        context.report(`${pluginName}: warning: File skipped: ${checked.problem}\n`);
        current = DISCARDED;
        continue;
      }
      if (!checked.ok) return { fatal: `${pluginName}: ${checked.problem}` };
      current =
        insertionPoint.length > 0 ? location.openForInsert(checked.name, insertionPoint, file.codeInfo) : location.open(checked.name);
    } else if (!current) {
      return { fatal: `${pluginName}: First file chunk returned by plugin did not specify a file name.` };
    } else if (switches.has('compiler.continuation-dropped')) {
      continue;
    }
    current.append(file.content);
  }

  if (response.error.length > 0 && !switches.has('compiler.error-ignored')) {
    closeCurrent();
    return { fatal: switches.has('compiler.plugin-error-hidden') ? `${pluginName}: generation failed` : response.error };
  }
  if ((response.supportedFeatures & FEATURE_PROTO3_OPTIONAL) === 0n && !switches.has('compiler.features-unchecked')) {
    const offending = context.filesToGenerate.find((file) => file.proto3Optional);
    if (offending) {
      context.report(proto3OptionalMessage(offending.name, pluginName));
      closeCurrent();
      return { fatal: '' };
    }
  }
  closeCurrent();
  return undefined;
}
