// The compiler_version touchstone protoc sends, and what --version prints.
//
// Decision: touchstone reports itself honestly: major, minor and patch of touchstone's own
// package version, suffix "touchstone". It does not pretend to be protoc 3.21.12 even though
// it applies responses like it. What plugins do with the field: protoc-gen-es ignores it
// (checked in node_modules); protoc-gen-go and ts-proto print it into the header of generated
// files ("protoc v0.1.0-touchstone"); no plugin we know refuses a version it does not know.
// A plugin that does gate on it, or a byte-for-byte comparison with protoc's output of a
// plugin that prints it, can ask for another value: --compiler_version=MAJOR.MINOR.PATCH[-SUFFIX].
import { packageVersion } from '../../../lib/project-files.js';
import type { CompilerVersion } from './plugin-request.js';

/** The protoc release whose plugin handling touchstone protoc reproduces. */
export const EMULATED_PROTOC = '3.21.12';
const VERSION_PATTERN = /^(\d+)\.(\d+)\.(\d+)(?:-(.*))?$/s;

/** Parses MAJOR.MINOR.PATCH[-SUFFIX]; undefined when the text is not that. */
export function parseCompilerVersion(text: string): CompilerVersion | undefined {
  const match = VERSION_PATTERN.exec(text);
  if (!match) return undefined;
  const [major, minor, patch] = [match[1], match[2], match[3]].map(Number);
  // int32 fields on the wire.
  if ([major, minor, patch].some((n) => n > 0x7fffffff)) return undefined;
  return { major, minor, patch, suffix: match[4] ?? '' };
}

export function touchstoneCompilerVersion(): CompilerVersion {
  const version = parseCompilerVersion(packageVersion());
  if (!version) throw new Error(`internal: package.json version ${packageVersion()} is not MAJOR.MINOR.PATCH`);
  // A prerelease of touchstone (0.2.0-rc1) would otherwise lose its own suffix.
  return { ...version, suffix: version.suffix ? `${version.suffix}.touchstone` : 'touchstone' };
}

/** The --version text: one line, like protoc's `libprotoc 3.21.12`, but about touchstone. */
export function versionText(): string {
  return `touchstone protoc ${packageVersion()} (plugin handling of protoc ${EMULATED_PROTOC})\n`;
}
