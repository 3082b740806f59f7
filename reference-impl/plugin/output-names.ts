// Output names come from the .proto name the compiler sent (`demo/foo.proto` → `demo/foo.md`,
// `demo/foo.d.ts`), and the spec requires names relative to the output directory with no "."
// or ".." components. protoc 3.21 does not check this itself (it writes `../x` outside the
// output directory), so the plugin refuses to derive a name from a .proto name that would
// produce an unsafe one instead of silently rewriting it into something the user did not ask for.
import { posix } from 'node:path';

const PROTO_SUFFIX = '.proto';

/** `demo/foo.proto` → `demo/foo`; undefined when no safe relative name can be derived. */
export function outputStem(protoName: string): string | undefined {
  const stem = protoName.endsWith(PROTO_SUFFIX) ? protoName.slice(0, -PROTO_SUFFIX.length) : protoName;
  return isSafeRelativeName(stem) ? stem : undefined;
}

/**
 * Relative, `/`-separated, every component a real name: not absolute, no backslash (a
 * separator on Windows, a literal character on Linux: either way not what the spec allows),
 * no empty, "." or ".." component, no control characters.
 */
export function isSafeRelativeName(name: string): boolean {
  if (name === '' || name.includes('\\') || /[\u0000-\u001f\u007f]/.test(name)) return false;
  return name.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

/**
 * The module specifier one generated declaration file uses for another: relative, with the
 * `.js` extension that Node's ESM resolution (and TypeScript's NodeNext) require; TypeScript
 * maps it to the `.d.ts` next to it.
 */
export function relativeModuleSpecifier(fromStem: string, toStem: string): string {
  const relative = posix.relative(posix.dirname(fromStem), toStem);
  return `${relative.startsWith('../') ? relative : `./${relative}`}.js`;
}
