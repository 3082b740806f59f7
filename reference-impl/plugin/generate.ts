// The plugin itself, as a pure function: one CodeGeneratorRequest in, one
// CodeGeneratorResponse out, nothing read or written besides. Same request, same response
// (no clock, no environment, no iteration over unordered state), so same bytes on the wire.
// Built-in faults and variations (faults.ts) are switched here, where each behaviour is decided.
//
// Decisions where spec 3 is silent, each with the variation that takes the other reading
// (suites/variants/plugin-protocol.yaml):
// - an option the plugin does not know goes in `error`, exit 0, as protoc's own plugins do
//   (plugin.unknown-option-on-stderr: message on stderr, exit 1, as protoc-gen-es does);
// - a request with nothing to generate gets an empty response, no error
//   (plugin.empty-request-declined: `error` says there is nothing to generate);
// - FEATURE_PROTO3_OPTIONAL on every response, which protoc requires before it takes output
//   for proto3 optional fields (plugin.features-not-advertised: no bits at all);
// - outputs in file_to_generate order, `.md` before `.d.ts` (plugin.outputs-sorted-by-name);
// - the same request gives the same bytes (plugin.output-stamped-per-run: a run id in the
//   Markdown, as generators that stamp a build id or time do).
import { randomUUID } from 'node:crypto';
import {
  FEATURE_PROTO3_OPTIONAL,
  type CodeGeneratorRequest,
  type CodeGeneratorResponse,
  type FileDescriptor,
  type GeneratedFile,
} from './descriptor-types.js';
import { NO_FAULTS } from '../fault-list.js';
import type { PluginSwitches } from './faults.js';
import { renderMarkdown } from './markdown-reference.js';
import { chunkFile } from './output-chunks.js';
import { outputStem } from './output-names.js';
import { parsePluginOptions } from './plugin-options.js';
import { findSchemaProblems } from './schema-checks.js';
import { createSymbolTable } from './symbol-table.js';
import { renderTypeScript } from './typescript-declarations.js';

/**
 * Thrown, instead of answering with `error`, when a fault makes the plugin refuse the
 * request the way spec 3 forbids: main() prints the message and exits 1.
 */
export class PluginRefusal extends Error {}

export function generate(request: CodeGeneratorRequest, switches: PluginSwitches = NO_FAULTS): CodeGeneratorResponse {
  // The feature bit goes on every response, errors included: newer compilers check it even
  // when error is set and would add a misleading proto3-optional complaint to the real error.
  const supported_features = switches.has('plugin.features-not-advertised') ? 0 : FEATURE_PROTO3_OPTIONAL;
  const problem = (error: string, refuse: boolean): CodeGeneratorResponse => {
    if (refuse) throw new PluginRefusal(error);
    return { error, supported_features, file: [] };
  };
  const parsed = parsePluginOptions(request.parameter);
  if (!parsed.ok) return problem(parsed.error, switches.has('plugin.unknown-option-on-stderr'));
  const { options } = parsed;

  const protoFiles = request.proto_file ?? [];
  const filesByName = new Map<string, FileDescriptor>();
  for (const file of protoFiles) if (file.name !== undefined && !filesByName.has(file.name)) filesByName.set(file.name, file);
  const symbols = createSymbolTable(protoFiles);
  const filesToGenerate = request.file_to_generate ?? [];
  if (filesToGenerate.length === 0 && switches.has('plugin.empty-request-declined'))
    return problem('nothing to generate: the request names no file in file_to_generate', false);

  const problems = findSchemaProblems(filesToGenerate, filesByName, symbols);
  if (problems.length > 0) return problem(problems.join('\n'), switches.has('plugin.schema-problem-exit-nonzero'));

  const context = { symbols, insertionPoints: options.insertionPoints };
  // The variation's stamp: a new run id on every run, so the same request gives different bytes.
  const stamp = switches.has('plugin.output-stamped-per-run') ? `\n<!-- generation run ${randomUUID()} -->\n` : '';
  const outputs: { name: string; content: string }[] = [];
  for (const name of filesToGenerate) {
    const descriptor = filesByName.get(name)!;
    const stem = switches.has('plugin.absolute-names') ? `/${outputStem(name)!}` : outputStem(name)!;
    if (options.format !== 'ts') outputs.push({ name: `${stem}.md`, content: renderMarkdown(descriptor, context) + stamp });
    if (options.format !== 'md') outputs.push({ name: `${stem}.d.ts`, content: renderTypeScript(descriptor, context) });
  }
  // Spec 3 gives the response's files no order; each output's chunks stay together either way.
  if (switches.has('plugin.outputs-sorted-by-name')) outputs.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const file: GeneratedFile[] = outputs.flatMap((output) => chunkFile(output.name, output.content, options.chunk));
  if (switches.has('plugin.first-chunk-unnamed') && file.length > 0) file[0] = { content: file[0].content };
  if (switches.has('plugin.insertion-point-without-name')) file.push({ insertion_point: 'touchstone_fault', content: '// inserted\n' });
  return { supported_features, file };
}
