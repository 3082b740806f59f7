// google/protobuf/*.proto when no import path has them: protoc finds its own copies in its
// include directory; we take the ones protobufjs ships. protobufjs ships .proto text for
// some (api, descriptor, source_context, type, compiler/plugin) and only pre-parsed JSON
// for the rest (any, duration, empty, field_mask, struct, timestamp, wrappers), all
// "stripped": no comments and no file options. Plugins need the file options (protoc-gen-go
// reads go_package of every imported file), so the options protobuf 3.21's copies declare
// are restored from the table below; they have been stable for years.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import protobuf from 'protobufjs';

export type WellKnownSource = { source: string } | { json: protobuf.INamespace };

const WELL_KNOWN = ['any', 'api', 'duration', 'empty', 'field_mask', 'source_context', 'struct', 'timestamp', 'type', 'wrappers'];
const OUTER_CLASS: Record<string, string> = {
  any: 'AnyProto',
  api: 'ApiProto',
  duration: 'DurationProto',
  empty: 'EmptyProto',
  field_mask: 'FieldMaskProto',
  source_context: 'SourceContextProto',
  struct: 'StructProto',
  timestamp: 'TimestampProto',
  type: 'TypeProto',
  wrappers: 'WrappersProto',
};
// protobuf 3.21 leaves cc_enable_arenas unset in these three.
const WITHOUT_ARENAS = new Set(['any', 'api', 'source_context']);

/** The text or JSON of a well-known file protobufjs ships, or undefined for any other name. */
export function loadWellKnown(name: string): WellKnownSource | undefined {
  const m = /^google\/protobuf\/(\w+|compiler\/plugin)\.proto$/.exec(name);
  if (!m || !(WELL_KNOWN.includes(m[1]) || m[1] === 'descriptor' || m[1] === 'compiler/plugin')) return undefined;
  try {
    const path = createRequire(import.meta.url).resolve(`protobufjs/${name}`);
    return { source: readFileSync(path, 'utf8') };
  } catch {
    const json = protobuf.common.get(name) as protobuf.INamespace | null;
    return json ? { json: snakeCaseFields(json) } : undefined;
  }
}

/**
 * protobufjs's JSON spells some field names in camelCase (struct.proto's Value.nullValue …);
 * every field of the upstream well-known files is snake_case, which protoc reports.
 */
function snakeCaseFields(json: protobuf.INamespace): protobuf.INamespace {
  const snake = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  type Node = Record<string, unknown>;
  const walk = (node: Node): Node => {
    const out: Node = { ...node };
    if (node.fields) out.fields = Object.fromEntries(Object.entries(node.fields as Node).map(([k, v]) => [snake(k), v]));
    if (node.oneofs) {
      out.oneofs = Object.fromEntries(
        Object.entries(node.oneofs as Record<string, { oneof: string[] }>).map(([k, v]) => [k, { ...v, oneof: v.oneof.map(snake) }]),
      );
    }
    if (node.nested) out.nested = Object.fromEntries(Object.entries(node.nested as Node).map(([k, v]) => [k, walk(v as Node)]));
    return out;
  };
  return walk({ ...json }) as protobuf.INamespace;
}

/** File options of protobuf 3.21's copy of a well-known file, when protobufjs's copy lacks them. */
export function wellKnownFileOptions(name: string): Record<string, unknown> | undefined {
  const m = /^google\/protobuf\/(\w+)\.proto$/.exec(name);
  if (!m || !WELL_KNOWN.includes(m[1])) return undefined;
  const short = m[1];
  return {
    java_package: 'com.google.protobuf',
    java_outer_classname: OUTER_CLASS[short],
    java_multiple_files: true,
    go_package: `google.golang.org/protobuf/types/known/${short.replace(/_/g, '')}pb`,
    ...(WITHOUT_ARENAS.has(short) ? {} : { cc_enable_arenas: true }),
    objc_class_prefix: 'GPB',
    csharp_namespace: 'Google.Protobuf.WellKnownTypes',
  };
}
