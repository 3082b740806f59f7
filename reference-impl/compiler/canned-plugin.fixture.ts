// Test support: sandboxes with canned plugins, shared by the driver tests and the
// differential tests against Debian's protoc. A canned plugin is a small sh script that
// saves its request to req/NAME.bin (relative to the compiler's cwd, which plugins
// inherit), prints fixed response bytes from resp/NAME.bin, and then exits, fails or kills
// itself as told. Responses are encoded by hand with protobufjs' Writer so a test can send
// what a real plugin might: absent versus empty fields, raw bytes in content, garbage.
import { test as base } from '@playwright/test';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import protobuf from 'protobufjs';
import { loadPluginMessages } from './common/plugin-messages.js';
import { runProtoc } from './protoc-driver.js';
import { DEBIAN_PROTOC } from '../../test-support/debian-protoc.js';

export interface CannedFile {
  name?: string;
  insertion_point?: string;
  content?: string | Uint8Array;
  /** Encoded GeneratedCodeInfo (see encodeCodeInfo). */
  generated_code_info?: Uint8Array;
}

export interface CannedResponse {
  error?: string;
  supported_features?: number;
  file?: CannedFile[];
}

export interface CannedPlugin {
  /** NAME of protoc-gen-NAME. */
  name: string;
  /** The response, or raw stdout bytes. */
  response?: CannedResponse | Uint8Array;
  exitCode?: number;
  /** Kill itself with this signal after writing stdout, e.g. 'SEGV'. */
  signal?: string;
  /** Never read stdin (the request goes unread). */
  ignoreStdin?: boolean;
  stderr?: string;
  /** Seconds to sleep before answering. */
  sleep?: number;
  /** Leave a background process holding stdout open this many seconds after exiting. */
  linger?: number;
  /** false: the script has no `#!` line (exec fails with ENOEXEC; execvp falls back to sh). */
  shebang?: boolean;
}

const bytes = (value: string | Uint8Array) => (typeof value === 'string' ? Buffer.from(value, 'utf8') : value);

export function encodeResponse(response: CannedResponse): Uint8Array {
  const writer = protobuf.Writer.create();
  if (response.error !== undefined) writer.uint32((1 << 3) | 2).bytes(bytes(response.error));
  if (response.supported_features !== undefined) writer.uint32(2 << 3).uint64(response.supported_features);
  for (const file of response.file ?? []) {
    writer.uint32((15 << 3) | 2).fork();
    if (file.name !== undefined) writer.uint32((1 << 3) | 2).bytes(bytes(file.name));
    if (file.insertion_point !== undefined) writer.uint32((2 << 3) | 2).bytes(bytes(file.insertion_point));
    if (file.content !== undefined) writer.uint32((15 << 3) | 2).bytes(bytes(file.content));
    if (file.generated_code_info !== undefined) writer.uint32((16 << 3) | 2).bytes(file.generated_code_info);
    writer.ldelim();
  }
  return writer.finish();
}

export interface CannedAnnotation {
  path?: number[];
  source_file?: string;
  begin?: number;
  end?: number;
  /** Field 5 of newer descriptor.proto; protoc 3.21 keeps it as an unknown field. */
  semantic?: number;
  /** An unknown length-delimited field 9 holding these bytes. */
  unknown9?: Uint8Array;
}

/** Field 1 = 7 wrapped in `depth` messages, each the field 1 of the next. */
export function nestedUnknown(depth: number): Uint8Array {
  let bytes = protobuf.Writer.create()
    .uint32(1 << 3)
    .int32(7)
    .finish();
  for (let i = 0; i < depth; i++)
    bytes = protobuf.Writer.create()
      .uint32((1 << 3) | 2)
      .bytes(bytes)
      .finish();
  return bytes;
}

export function encodeCodeInfo(annotations: CannedAnnotation[]): Uint8Array {
  const writer = protobuf.Writer.create();
  for (const a of annotations) {
    writer.uint32((1 << 3) | 2).fork();
    if (a.path?.length) {
      writer.uint32((1 << 3) | 2).fork();
      for (const p of a.path) writer.int32(p);
      writer.ldelim();
    }
    if (a.source_file !== undefined) writer.uint32((2 << 3) | 2).string(a.source_file);
    if (a.begin !== undefined) writer.uint32(3 << 3).int32(a.begin);
    if (a.end !== undefined) writer.uint32(4 << 3).int32(a.end);
    if (a.semantic !== undefined) writer.uint32(5 << 3).int32(a.semantic);
    if (a.unknown9 !== undefined) writer.uint32((9 << 3) | 2).bytes(a.unknown9);
    writer.ldelim();
  }
  return writer.finish();
}

function script(plugin: CannedPlugin): string {
  const lines = plugin.shebang === false ? [] : ['#!/bin/sh'];
  lines.push(plugin.ignoreStdin ? ':' : `cat > req/${plugin.name}.bin`);
  if (plugin.sleep !== undefined) lines.push(`sleep ${plugin.sleep}`);
  if (plugin.linger !== undefined) lines.push(`sleep ${plugin.linger} &`);
  if (plugin.stderr !== undefined) lines.push(`printf '%s' '${plugin.stderr.replaceAll("'", "'\\''")}' >&2`);
  lines.push(`cat resp/${plugin.name}.bin`);
  if (plugin.signal) lines.push(`kill -${plugin.signal} $$`);
  lines.push(`exit ${plugin.exitCode ?? 0}`);
  return `${lines.join('\n')}\n`;
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export const DEMO_PROTOS: Record<string, string> = {
  'dep.proto': 'syntax = "proto3";\npackage demo;\nmessage Dep { string some_field = 1; }\n',
  'foo.proto': 'syntax = "proto3";\npackage demo;\nimport "dep.proto";\n// Foo comment\nmessage Foo { Dep dep = 1; int32 my_value = 2; }\n',
  'opt.proto': 'syntax = "proto3";\npackage demo;\nmessage Opt { optional int32 maybe = 1; }\n',
  'usesopt.proto': 'syntax = "proto3";\npackage demo;\nimport "opt.proto";\nmessage UsesOpt { Opt opt = 1; }\n',
  'base.proto': 'syntax = "proto2";\npackage demo;\nmessage Base { optional int32 only_field = 1; }\n',
};

/**
 * A compiler's working directory in the system's temporary directory: protos/ (DEMO_PROTOS),
 * bin/ (canned plugins), req/, resp/, and empty output directories out/ and o2/. With a
 * descriptor set given, it is copied in as set.pb. Tests get them from the `sandbox`
 * fixture below, which removes them afterwards.
 */
export class Sandbox {
  readonly dir: string;

  constructor(options: { descriptorSet?: Uint8Array } = {}) {
    this.dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-protoc-'));
    for (const sub of ['protos', 'bin', 'req', 'resp', 'out', 'o2']) mkdirSync(path.join(this.dir, sub));
    for (const [name, text] of Object.entries(DEMO_PROTOS)) writeFileSync(path.join(this.dir, 'protos', name), text);
    if (options.descriptorSet) writeFileSync(path.join(this.dir, 'set.pb'), options.descriptorSet);
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  get bin(): string {
    return path.join(this.dir, 'bin');
  }

  addPlugin(plugin: CannedPlugin): this {
    const file = path.join(this.bin, `protoc-gen-${plugin.name}`);
    writeFileSync(file, script(plugin));
    chmodSync(file, 0o755);
    const response = plugin.response ?? new Uint8Array(0);
    writeFileSync(path.join(this.dir, 'resp', `${plugin.name}.bin`), response instanceof Uint8Array ? response : encodeResponse(response));
    return this;
  }

  write(relative: string, content: string | Uint8Array): this {
    mkdirSync(path.dirname(path.join(this.dir, relative)), { recursive: true });
    writeFileSync(path.join(this.dir, relative), content);
    return this;
  }

  request(name: string): Uint8Array | undefined {
    const file = path.join(this.dir, 'req', `${name}.bin`);
    return existsSync(file) ? readFileSync(file) : undefined;
  }

  get env(): NodeJS.ProcessEnv {
    return { ...process.env, PATH: `${this.bin}:${process.env.PATH ?? ''}` };
  }

  /** touchstone protoc, in-process, with this sandbox as cwd; plugin stderr is captured too. */
  async runOurs(args: string[]): Promise<RunResult> {
    let stdout = '';
    const stderr: Buffer[] = [];
    const code = await runProtoc(args, {
      cwd: this.dir,
      env: this.env,
      stdout: (chunk) => (stdout += Buffer.from(chunk).toString('utf8')),
      stderr: (chunk) => void stderr.push(Buffer.from(chunk)),
    });
    return { code, stdout, stderr: Buffer.concat(stderr).toString('latin1') };
  }

  /** Debian's protoc with the same cwd and PATH. */
  runDebianProtoc(args: string[]): Promise<RunResult> {
    return new Promise((resolve, reject) => {
      const child = spawn(DEBIAN_PROTOC, args, { cwd: this.dir, env: this.env, stdio: ['ignore', 'pipe', 'pipe'] });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (d: Buffer) => out.push(d));
      child.stderr.on('data', (d: Buffer) => err.push(d));
      child.on('error', reject);
      child.on('close', (code) =>
        resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('latin1') }),
      );
    });
  }

  /** Every file and directory below `relative`, with file contents, for tree comparisons. */
  tree(relative = '.'): Record<string, string> {
    const root = path.join(this.dir, relative);
    const entries: Record<string, string> = {};
    const walk = (dir: string) => {
      for (const name of readdirSync(dir).sort()) {
        const full = path.join(dir, name);
        const key = path.relative(root, full);
        if (statSync(full).isDirectory()) {
          entries[`${key}/`] = '';
          walk(full);
        } else entries[key] = readFileSync(full).toString('latin1');
      }
    };
    if (existsSync(root)) walk(root);
    return entries;
  }
}

/** Debian protoc's descriptor set of DEMO_PROTOS (imports and source info included). */
export async function demoDescriptorSet(): Promise<Uint8Array> {
  const sandbox = new Sandbox();
  try {
    const result = await sandbox.runDebianProtoc([
      '-Iprotos',
      '--include_imports',
      '--include_source_info',
      '-o',
      'set.pb',
      ...Object.keys(DEMO_PROTOS),
    ]);
    if (result.code !== 0) throw new Error(`protoc -o failed: ${result.stderr}`);
    return readFileSync(path.join(sandbox.dir, 'set.pb'));
  } finally {
    sandbox.dispose();
  }
}

const field = (name: string, number: number, type: string, extra: object = {}) => ({
  name,
  number,
  label: 'LABEL_OPTIONAL',
  type,
  ...extra,
});

/**
 * DEMO_PROTOS as a FileDescriptorSet built by hand (no protoc needed), plus big.proto, a file
 * large enough (over 64 KiB encoded) that a request cannot fit in a pipe buffer.
 */
export function handBuiltDescriptorSet(): Uint8Array {
  const { fileDescriptorSet } = loadPluginMessages();
  const proto3 = { package: 'demo', syntax: 'proto3' };
  const file = [
    { name: 'dep.proto', ...proto3, message_type: [{ name: 'Dep', field: [field('some_field', 1, 'TYPE_STRING')] }] },
    {
      name: 'foo.proto',
      ...proto3,
      dependency: ['dep.proto'],
      message_type: [
        { name: 'Foo', field: [field('dep', 1, 'TYPE_MESSAGE', { type_name: '.demo.Dep' }), field('my_value', 2, 'TYPE_INT32')] },
      ],
    },
    {
      name: 'opt.proto',
      ...proto3,
      message_type: [
        {
          name: 'Opt',
          field: [field('maybe', 1, 'TYPE_INT32', { oneof_index: 0, proto3_optional: true })],
          oneof_decl: [{ name: '_maybe' }],
        },
      ],
    },
    {
      name: 'usesopt.proto',
      ...proto3,
      dependency: ['opt.proto'],
      message_type: [{ name: 'UsesOpt', field: [field('opt', 1, 'TYPE_MESSAGE', { type_name: '.demo.Opt' })] }],
    },
    { name: 'base.proto', package: 'demo', message_type: [{ name: 'Base', field: [field('only_field', 1, 'TYPE_INT32')] }] },
    {
      name: 'big.proto',
      ...proto3,
      message_type: [{ name: 'Big', field: Array.from({ length: 3000 }, (_, i) => field(`field_number_${i}`, i + 1, 'TYPE_INT32')) }],
    },
  ];
  return fileDescriptorSet.encode(fileDescriptorSet.fromObject({ file })).finish();
}

export type SandboxFactory = (options?: { descriptorSet?: Uint8Array }) => Sandbox;

/** The flag naming the sandbox's descriptor set, as written by withPlugins. */
export const DESCRIPTOR_SET_IN = '--descriptor_set_in=set.pb';

/** A sandbox holding the hand-built descriptor set (no .proto parsing) and these plugins. */
export function withPlugins(sandbox: SandboxFactory, ...plugins: CannedPlugin[]): Sandbox {
  const box = sandbox({ descriptorSet: handBuiltDescriptorSet() });
  for (const plugin of plugins) box.addPlugin(plugin);
  return box;
}

/** Playwright's test with `sandbox(options)`: new sandboxes, removed when the test ends. */
export const test = base.extend<{ sandbox: SandboxFactory }>({
  // Playwright reads which fixtures this one needs from the first parameter, so it must be a pattern.
  sandbox: async ({}, use) => {
    const made: Sandbox[] = [];
    await use((options) => {
      const box = new Sandbox(options);
      made.push(box);
      return box;
    });
    for (const box of made) box.dispose();
  },
});

export { expect } from '@playwright/test';
