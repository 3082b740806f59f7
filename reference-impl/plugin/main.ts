// The process side of protoc-gen-touchstone, and nothing else: read all of stdin, decode,
// generate(), encode, write stdout, pick the exit status. Exit statuses follow spec 3:
//   0  a response was written (it may carry `error`: a problem in the schema, not in the plugin)
//   1  the request could not be parsed, or the plugin failed; a message is on stderr, stdout is empty
//   2  the plugin was started with arguments (compilers pass none; options go in the parameter)
import type { Writable } from 'node:stream';
import { generate } from './generate.js';
import { createPluginCodec } from './plugin-codec.js';

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
`;

export async function main(io: PluginIo): Promise<number> {
  if (io.argv.length > 0) {
    const help = io.argv.length === 1 && (io.argv[0] === '--help' || io.argv[0] === '-h');
    await write(help ? io.stdout : io.stderr, USAGE);
    return help ? 0 : 2;
  }
  const input = await readAll(io.stdin);
  const codec = createPluginCodec();
  let request;
  try {
    // Zero bytes decode to an empty request (no files): a valid message, answered normally.
    request = codec.decodeRequest(input);
  } catch (error) {
    await write(io.stderr, `protoc-gen-touchstone: standard input is not a CodeGeneratorRequest (${input.length} bytes): ${describe(error)}\n`);
    return 1;
  }
  let output: Uint8Array;
  try {
    output = codec.encodeResponse(generate(request));
  } catch (error) {
    // Schema problems never get here (generate() reports them in the response); this is a bug.
    await write(io.stderr, `protoc-gen-touchstone: internal error: ${error instanceof Error && error.stack ? error.stack : describe(error)}\n`);
    return 1;
  }
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
