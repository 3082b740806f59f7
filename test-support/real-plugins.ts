// The real code generators touchstone's plugin verdicts are held to: Debian's protoc-gen-go,
// protoc-gen-go-grpc and the gogoprotobuf generators (on PATH, from the packages protoc-gen-go,
// protoc-gen-go-grpc and gogoprotobuf), and npm's @connectrpc/protoc-gen-connect-es 1.x with the
// @bufbuild/protoc-gen-es 1.x it needs, installed apart from the project's own (which is 2.x)
// in the folder TOUCHSTONE_PEERS names (.ci/run makes it). Without them a developer gets a
// visible skip; CI sets TOUCHSTONE_REQUIRE_PEERS=1 so a missing one fails instead.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { skipUnlessInstalled, type Skippable } from './required-tool.js';

export const DEBIAN_PLUGINS = [
  'protoc-gen-go',
  'protoc-gen-go-grpc',
  'protoc-gen-gogo',
  'protoc-gen-gofast',
  'protoc-gen-gogofast',
  'protoc-gen-gogofaster',
  'protoc-gen-gogoslick',
  'protoc-gen-gogotypes',
  'protoc-gen-gostring',
] as const;

/** Where Debian puts them; named in full so that a plugin elsewhere on PATH never stands in. */
export const debianPlugin = (name: (typeof DEBIAN_PLUGINS)[number]) => `/usr/bin/${name}`;

/** An npm plugin of the peers folder, e.g. protoc-gen-connect-es, or undefined when it is not there. */
export function npmPlugin(name: string): string | undefined {
  const dir = process.env.TOUCHSTONE_PEERS;
  const bin = dir && path.join(dir, 'node_modules', '.bin', name);
  return bin && existsSync(bin) ? bin : undefined;
}

export function skipWithoutRealPlugins(test: Skippable): void {
  const missing = [
    ...DEBIAN_PLUGINS.filter((name) => !existsSync(debianPlugin(name))),
    ...(npmPlugin('protoc-gen-connect-es') ? [] : ['protoc-gen-connect-es']),
  ];
  skipUnlessInstalled(
    test,
    missing.length === 0,
    `${missing.join(', ')} not found: apt-get install protoc-gen-go protoc-gen-go-grpc gogoprotobuf, and npm install @connectrpc/protoc-gen-connect-es@1 @bufbuild/protoc-gen-es@1 into a folder named by TOUCHSTONE_PEERS`,
    'TOUCHSTONE_REQUIRE_PEERS',
  );
}
