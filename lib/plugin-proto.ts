// The plugin protocol's messages as protobufjs types: harness/protocol/plugin.proto (written
// from the spec) and the descriptor.proto it imports, which resolves to the copy protobufjs
// ships (newer than the spec's, so it knows proto3_optional, editions …). keepCase: the field
// names stay the .proto's (file_to_generate, proto_file …).
//
// Commands read the types from plugin-proto.json beside plugin.proto, the parse of it that
// `npm run fixtures:plugin` writes (a test keeps it current): building them from JSON takes
// ~2 ms where parsing the .proto text takes ~10 ms, at every start of the plugin, of
// `touchstone protoc` and of the harness. The types are never changed once resolved, so one
// root serves a whole process.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import protobuf from 'protobufjs';
import { projectPath } from './project-files.js';

export const PLUGIN_PROTO_PATH = projectPath('harness/protocol/plugin.proto');
export const PLUGIN_PROTO_JSON_PATH = projectPath('harness/protocol/plugin-proto.json');
const DESCRIPTOR_IMPORT = 'google/protobuf/descriptor.proto';

/** plugin.proto parsed from its text: what plugin-proto.json must hold. */
export function parsePluginProto(): protobuf.Root {
  const descriptor = createRequire(import.meta.url).resolve(`protobufjs/${DESCRIPTOR_IMPORT}`);
  const root = new protobuf.Root();
  const defaultResolve = root.resolvePath.bind(root);
  root.resolvePath = (origin, target) => (target === DESCRIPTOR_IMPORT ? descriptor : defaultResolve(origin, target));
  root.loadSync(PLUGIN_PROTO_PATH, { keepCase: true });
  root.resolveAll();
  return root;
}

/** The text of plugin-proto.json for `root`. */
export function pluginProtoJson(root: protobuf.Root): string {
  return `${JSON.stringify(root.toJSON(), null, 1)}\n`;
}

let loaded: protobuf.Root | undefined;

/** The protocol's types, from plugin-proto.json, once per process. */
export function pluginProtoRoot(): protobuf.Root {
  if (!loaded) {
    loaded = protobuf.Root.fromJSON(JSON.parse(readFileSync(PLUGIN_PROTO_JSON_PATH, 'utf8')));
    loaded.resolveAll();
  }
  return loaded;
}
