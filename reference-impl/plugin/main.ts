// The process side of protoc-gen-touchstone, and nothing else: read all of stdin, decode,
// generate(), encode, write stdout, pick the exit status. Exit statuses follow spec 3:
//   0  a response was written (it may carry `error`: a problem in the schema, not in the plugin)
//   1  the request could not be parsed, or the plugin failed; a message is on stderr, stdout is empty
//   2  the plugin was started with arguments (compilers pass none; options go in the parameter),
//      other than --fault=NAME and --variant=NAME, which switch on a built-in fault or variation (faults.ts)
import type { Writable } from 'node:stream';
import { isListed } from '../fault-list.js';
import { PLUGIN_FAULTS, PLUGIN_VARIANTS, type PluginFault, type PluginSwitches, type PluginVariant } from './faults.js';
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
from the protocol, --variant=NAME another choice the protocol allows.
Faults: ${PLUGIN_FAULTS.join(', ')}.
Variations: ${PLUGIN_VARIANTS.join(', ') || 'none'}.
`;

type Arguments = { switches: PluginSwitches } | { exit: 0 | 2; text: string };

const SWITCH_FLAGS = {
  '--fault': { kind: 'fault', names: PLUGIN_FAULTS },
  '--variant': { kind: 'variation', names: PLUGIN_VARIANTS },
} as const;

/** `--fault=NAME`, `--fault NAME`, `--variant=NAME` or `--variant NAME`, any number of times; `--help` alone; nothing else. */
function parseArguments(argv: readonly string[]): Arguments {
  if (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h')) return { exit: 0, text: USAGE };
  const switches = new Set<PluginFault | PluginVariant>();
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2) as [string, string | undefined];
    const known = Object.hasOwn(SWITCH_FLAGS, flag) ? SWITCH_FLAGS[flag as keyof typeof SWITCH_FLAGS] : undefined;
    const name = known && (inline ?? argv[++i]);
    if (!known || name === undefined) return { exit: 2, text: USAGE };
    if (!isListed<PluginFault | PluginVariant>(known.names, name))
      return {
        exit: 2,
        text: `protoc-gen-touchstone: unknown ${known.kind} "${name}"; ${known.kind}s: ${known.names.join(', ') || 'none'}\n`,
      };
    switches.add(name);
  }
  return { switches };
}

/** The fields spec 3 lists before proto_file (15): "The compiler writes proto_file after the other fields". */
const WRITTEN_BEFORE_PROTO_FILE = new Set([1, 2, 3]);

/**
 * The request, or an exception when it does not parse (or a fault says it does not).
 * By default the fields are read in any order, as protobuf parsers do. With the variation
 * plugin.field-order-relied-on the plugin takes the compiler at its word instead: spec 3
 * says the compiler writes proto_file after the other fields, so a request with one of
 * them after proto_file comes from a broken compiler, "a problem in the compiler itself"
 * (message on stderr, exit 1), as a plugin that streams proto_file would find it.
 */
function readRequest(input: Buffer, codec: PluginCodec, switches: PluginSwitches) {
  const request = codec.decodeRequest(input);
  if (switches.has('plugin.empty-request-refused') && input.length === 0) throw new Error('no request on standard input');
  if (switches.has('plugin.field-order-relied-on')) {
    const numbers = codec.requestFields(input).map((field) => field.number);
    const first = numbers.indexOf(15);
    const late = first < 0 ? undefined : numbers.slice(first).find((n) => WRITTEN_BEFORE_PROTO_FILE.has(n));
    if (late !== undefined)
      throw new Error(`field ${late} after proto_file (15): the compiler must write proto_file after the other fields`);
  }
  const unknown = switches.has('plugin.unknown-fields-refused') ? codec.requestFields(input).find((field) => !field.known) : undefined;
  if (unknown) throw new Error(`unknown field ${unknown.number}`);
  return request;
}

export async function main(io: PluginIo): Promise<number> {
  const args = parseArguments(io.argv);
  if ('exit' in args) {
    await write(args.exit === 0 ? io.stdout : io.stderr, args.text);
    return args.exit;
  }
  const { switches } = args;
  const input = await readAll(io.stdin);
  const codec = createPluginCodec();
  let request: ReturnType<typeof readRequest>;
  try {
    // Zero bytes decode to an empty request (no files): a valid message, answered normally.
    request = readRequest(input, codec, switches);
  } catch (error) {
    if (switches.has('plugin.garbage-exit-zero')) {
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
    output = codec.encodeResponse(generate(request, switches));
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
  if (switches.has('plugin.text-before-response')) await write(io.stdout, 'protoc-gen-touchstone: generating\n');
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
