// The process side of protoc-gen-touchstone, and nothing else: read all of stdin, decode,
// generate(), encode, write stdout, pick the exit status. Exit statuses follow spec 3:
//   0  a response was written (it may carry `error`: a problem in the schema, not in the plugin)
//   1  the request could not be parsed, or the plugin failed; a message is on stderr, stdout is empty
//   2  the plugin was started with arguments (compilers pass none; options go in the parameter),
//      other than --fault=NAME, which switches on a built-in fault (faults.ts)
import type { Writable } from 'node:stream';
import { isListed } from '../fault-list.js';
import { PLUGIN_FAULTS, type PluginFault, type PluginFaults } from './faults.js';
import { generate, PluginRefusal } from './generate.js';
import { createPluginCodec, type PluginCodec } from './plugin-codec.js';

export interface PluginIo {
  argv: readonly string[];
  stdin: AsyncIterable<Uint8Array | string>;
  stdout: Writable;
  stderr: Writable;
}

const USAGE = `usage: protoc --plugin=protoc-gen-touchstone=PATH --touchstone_out=[OPTIONS:]DIR FILE.proto...
protoc-gen-touchstone is a code-generator plugin: it reads one CodeGeneratorRequest on stdin and
writes one CodeGeneratorResponse on stdout. It takes no arguments. OPTIONS (comma-separated):
  format=md|ts|both         outputs per file: Markdown reference, TypeScript declarations (default both)
  chunk=N                   split outputs into chunks of at most N bytes, 0 = never (default 16384)
  insertion_points=true|false   annotate outputs with @@protoc_insertion_point (default true)
For touchstone's kill matrix only: --fault=NAME (repeatable) switches on a built-in deviation
from the protocol. Faults: ${PLUGIN_FAULTS.join(', ')}.
`;

type Arguments = { faults: PluginFaults } | { exit: 0 | 2; text: string };

/** `--fault=NAME` or `--fault NAME`, any number of times; `--help` alone; nothing else. */
function parseArguments(argv: readonly string[]): Arguments {
  if (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h')) return { exit: 0, text: USAGE };
  const faults = new Set<PluginFault>();
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].startsWith('--fault=') ? argv[i].slice('--fault='.length) : argv[i] === '--fault' ? argv[++i] : undefined;
    if (name === undefined) return { exit: 2, text: USAGE };
    if (!isListed(PLUGIN_FAULTS, name))
      return { exit: 2, text: `protoc-gen-touchstone: unknown fault "${name}"; faults: ${PLUGIN_FAULTS.join(', ')}\n` };
    faults.add(name);
  }
  return { faults };
}

/** The request, or an exception when it does not parse (or a fault says it does not). */
function readRequest(input: Buffer, codec: PluginCodec, faults: PluginFaults) {
  const request = codec.decodeRequest(input);
  if (faults.has('plugin.empty-request-refused') && input.length === 0) throw new Error('no request on standard input');
  if (faults.has('plugin.proto-file-first-refused') && codec.requestFields(input)[0]?.number === 15)
    throw new Error('proto_file before file_to_generate');
  const unknown = faults.has('plugin.unknown-fields-refused') ? codec.requestFields(input).find((field) => !field.known) : undefined;
  if (unknown) throw new Error(`unknown field ${unknown.number}`);
  return request;
}

export async function main(io: PluginIo): Promise<number> {
  const args = parseArguments(io.argv);
  if ('exit' in args) {
    await write(args.exit === 0 ? io.stdout : io.stderr, args.text);
    return args.exit;
  }
  const { faults } = args;
  const input = await readAll(io.stdin);
  const codec = createPluginCodec();
  let request: ReturnType<typeof readRequest>;
  try {
    // Zero bytes decode to an empty request (no files): a valid message, answered normally.
    request = readRequest(input, codec, faults);
  } catch (error) {
    if (faults.has('plugin.garbage-exit-zero')) {
      await write(io.stdout, codec.encodeResponse({ file: [] }));
      return 0;
    }
    await write(
      io.stderr,
      `protoc-gen-touchstone: standard input is not a CodeGeneratorRequest (${input.length} bytes): ${describe(error)}\n`,
    );
    return 1;
  }
  let output: Uint8Array;
  try {
    output = codec.encodeResponse(generate(request, faults));
  } catch (error) {
    if (error instanceof PluginRefusal) {
      await write(io.stderr, `protoc-gen-touchstone: ${error.message}\n`);
      return 1;
    }
    // Schema problems never get here (generate() reports them in the response); this is a bug.
    await write(
      io.stderr,
      `protoc-gen-touchstone: internal error: ${error instanceof Error && error.stack ? error.stack : describe(error)}\n`,
    );
    return 1;
  }
  if (faults.has('plugin.text-before-response')) await write(io.stdout, 'protoc-gen-touchstone: generating\n');
  await write(io.stdout, output);
  return 0;
}

async function readAll(stream: AsyncIterable<Uint8Array | string>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

// Resolves once the data is handed to the OS, so the process can end without losing output.
function write(stream: Writable, data: Uint8Array | string): Promise<void> {
  return new Promise((resolve, reject) => stream.write(data, (error) => (error ? reject(error) : resolve())));
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
