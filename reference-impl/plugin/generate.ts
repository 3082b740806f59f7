// The plugin itself, as a pure function: one CodeGeneratorRequest in, one
// CodeGeneratorResponse out, nothing read or written besides. Same request, same response
// (no clock, no environment, no iteration over unordered state), so same bytes on the wire.
// Built-in faults (faults.ts) are switched here, where each behaviour is decided.
import { randomUUID } from 'node:crypto';
import {
  FEATURE_PROTO3_OPTIONAL,
  type CodeGeneratorRequest,
  type CodeGeneratorResponse,
  type FileDescriptor,
  type GeneratedFile,
} from './descriptor-types.js';
import { NO_FAULTS } from '../fault-list.js';
import type { PluginFaults } from './faults.js';
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

export function generate(request: CodeGeneratorRequest, faults: PluginFaults = NO_FAULTS): CodeGeneratorResponse {
  // The feature bit goes on every response, errors included: newer compilers check it even
  // when error is set and would add a misleading proto3-optional complaint to the real error.
  const supported_features = faults.has('plugin.proto3-optional-not-advertised') ? 0 : FEATURE_PROTO3_OPTIONAL;
  const problem = (error: string, refuse: boolean): CodeGeneratorResponse => {
    if (refuse) throw new PluginRefusal(error);
    return { error, supported_features, file: [] };
  };
  const parsed = parsePluginOptions(request.parameter);
  if (!parsed.ok) return problem(parsed.error, faults.has('plugin.unknown-option-exit-1'));
  const { options } = parsed;

  const protoFiles = request.proto_file ?? [];
  const filesByName = new Map<string, FileDescriptor>();
  for (const file of protoFiles) if (file.name !== undefined && !filesByName.has(file.name)) filesByName.set(file.name, file);
  const symbols = createSymbolTable(protoFiles);
  const filesToGenerate = request.file_to_generate ?? [];

  const problems = findSchemaProblems(filesToGenerate, filesByName, symbols);
  if (problems.length > 0) return problem(problems.join('\n'), faults.has('plugin.schema-problem-exit-nonzero'));

  const context = { symbols, insertionPoints: options.insertionPoints };
  // A fault's stamp: different on every run, so the same request gives different bytes.
  const stamp = faults.has('plugin.nondeterministic') ? `\n<!-- run ${randomUUID()} -->\n` : '';
  const file: GeneratedFile[] = [];
  for (const name of filesToGenerate) {
    const descriptor = filesByName.get(name)!;
    const stem = faults.has('plugin.absolute-names') ? `/${outputStem(name)!}` : outputStem(name)!;
    if (options.format !== 'ts') file.push(...chunkFile(`${stem}.md`, renderMarkdown(descriptor, context) + stamp, options.chunk));
    if (options.format !== 'md') file.push(...chunkFile(`${stem}.d.ts`, renderTypeScript(descriptor, context), options.chunk));
  }
  if (faults.has('plugin.first-chunk-unnamed') && file.length > 0) file[0] = { content: file[0].content };
  if (faults.has('plugin.insertion-point-without-name')) file.push({ insertion_point: 'touchstone_fault', content: '// inserted\n' });
  return { supported_features, file };
}
