// The folder one compiler case runs in, and the canned plugins in it. Layout:
//
//   <root>/plugins/protoc-gen-NAME      a sh script per generator (the canned plugin)
//   <root>/plugins/NAME.answer          the bytes it prints on stdout
//   <root>/requests/NAME.bin            the request it received (written when it runs)
//   <root>/work/<out>/                  each output directory, created empty
//
// Decisions where the brief is silent:
// - Canned plugins are POSIX sh scripts, not node programs: they start in a millisecond,
//   so a case's time is the compiler's, and `cat` copies bytes without any decoding.
// - The compiler runs in the user's working directory, so its command resolves as typed
//   (`./my-protoc`, `npx …`), and every path it is given is absolute.
// - Output directories sit one level below work/, so a name like `../x` that escapes one
//   lands in work/ where it is seen, never in the harness's files.
// - An absolute name in a case is written as {sandbox}/…: a compiler that wrongly writes
//   it lands inside the sandbox, where it is seen, instead of anywhere on the machine.
// - Inputs are given as absolute paths inside the include directory (-I fixtures), which
//   a protoc-style compiler maps to their names under it (shop/money.proto).
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { encodeResponse } from '../protocol/plugin-codec.js';
import type { CompilerCase, GeneratorSpec } from './compiler-suite-format.js';
import { shellWord } from '../core/shell-word.js';
import { makeDirectory } from '../../lib/make-directory.js';

export interface CompilerSandbox {
  root: string;
  /** The folder holding the output directories. */
  work: string;
  /** Arguments after the compiler command: include path, plugins, outputs, files. */
  args: string[];
  /** The request a generator's plugin received, or undefined when it never ran. */
  request(generator: string): Uint8Array | undefined;
  /** Every file under work/, by path from work/ ('/' separated, so out/…), with its bytes. */
  files(): Map<string, Buffer>;
  /** Entries of work/ that are not an output directory, and of the root that are not the sandbox's own ('../name'). */
  strays(): string[];
}

const SANDBOX_PARTS = new Set(['plugins', 'requests', 'work']);

export const outDirOf = (generator: GeneratorSpec): string => generator.out ?? 'out';

/** Written in a File name, stands for the sandbox's absolute path (see names.yaml). */
export const SANDBOX_PLACEHOLDER = '{sandbox}';

function answerBytes(generator: GeneratorSpec, root: string): Uint8Array {
  if ('stdout_text' in generator) return Buffer.from(generator.stdout_text, 'utf8');
  const { supported_features, file, ...response } = generator.response;
  return encodeResponse({
    ...response,
    ...(supported_features !== undefined && { supported_features: BigInt(supported_features) }),
    file: file?.map((f) => (f.name === undefined ? f : { ...f, name: f.name.replaceAll(SANDBOX_PLACEHOLDER, root) })),
  });
}

function cannedScript(generator: GeneratorSpec, requestFile: string, answerFile: string): string {
  const end = generator.signal ? `kill -s ${generator.signal} $$\n` : `exit ${generator.exit ?? 0}\n`;
  return `#!/bin/sh\n# touchstone canned plugin protoc-gen-${generator.name}: saves its request, prints a fixed answer.\ncat > ${shellWord(requestFile)}\ncat ${shellWord(answerFile)}\n${end}`;
}

/** Makes the folder of one case under `root` (which must not exist yet) and writes its plugins. */
export function createCompilerSandbox(root: string, testCase: CompilerCase, fixturesDir: string): CompilerSandbox {
  const plugins = path.join(root, 'plugins');
  const requests = path.join(root, 'requests');
  const work = path.join(root, 'work');
  for (const dir of [plugins, requests, work]) makeDirectory(dir);
  const outs = new Set(testCase.generators.map(outDirOf));
  for (const out of outs) mkdirSync(path.join(work, out));

  const args = [`-I${fixturesDir}`];
  for (const generator of testCase.generators) {
    const { name } = generator;
    const answer = path.join(plugins, `${name}.answer`);
    const script = path.join(plugins, `protoc-gen-${name}`);
    writeFileSync(answer, answerBytes(generator, root));
    writeFileSync(script, cannedScript(generator, path.join(requests, `${name}.bin`), answer));
    chmodSync(script, 0o755);
    args.push(`--plugin=protoc-gen-${name}=${script}`);
    args.push(`--${name}_out=${generator.out_parameter ? `${generator.out_parameter}:` : ''}${path.join(work, outDirOf(generator))}`);
    for (const value of generator.opt ?? []) args.push(`--${name}_opt=${value}`);
  }
  args.push(...testCase.files.map((file) => path.join(fixturesDir, file)));

  return {
    root,
    work,
    args,
    request(generator) {
      try {
        return readFileSync(path.join(requests, `${generator}.bin`));
      } catch {
        return undefined;
      }
    },
    files() {
      const found = new Map<string, Buffer>();
      const walk = (relative: string) => {
        for (const entry of readdirSync(path.join(work, relative), { withFileTypes: true })) {
          const child = relative ? `${relative}/${entry.name}` : entry.name;
          if (entry.isDirectory()) walk(child);
          else if (entry.isFile()) found.set(child, readFileSync(path.join(work, child)));
          else found.set(child, Buffer.alloc(0)); // a link or special file: seen, never followed
        }
      };
      walk('');
      return found;
    },
    strays() {
      const besideRoot = readdirSync(root)
        .filter((entry) => !SANDBOX_PARTS.has(entry))
        .map((entry) => `../${entry}`);
      return [...readdirSync(work).filter((entry) => !outs.has(entry)), ...besideRoot];
    },
  };
}
