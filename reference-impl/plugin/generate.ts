// The plugin itself, as a pure function: one CodeGeneratorRequest in, one
// CodeGeneratorResponse out, nothing read or written besides. Same request, same response
// (no clock, no environment, no iteration over unordered state), so same bytes on the wire.
import {
  FEATURE_PROTO3_OPTIONAL, type CodeGeneratorRequest, type CodeGeneratorResponse, type FileDescriptor, type GeneratedFile,
} from './descriptor-types.js';
import { renderMarkdown } from './markdown-reference.js';
import { chunkFile } from './output-chunks.js';
import { outputStem } from './output-names.js';
import { parsePluginOptions } from './plugin-options.js';
import { findSchemaProblems } from './schema-checks.js';
import { createSymbolTable } from './symbol-table.js';
import { renderTypeScript } from './typescript-declarations.js';

export function generate(request: CodeGeneratorRequest): CodeGeneratorResponse {
  // The feature bit goes on every response, errors included: newer compilers check it even
  // when error is set and would add a misleading proto3-optional complaint to the real error.
  const supported_features = FEATURE_PROTO3_OPTIONAL;
  const parsed = parsePluginOptions(request.parameter);
  if (!parsed.ok) return { error: parsed.error, supported_features, file: [] };
  const { options } = parsed;

  const protoFiles = request.proto_file ?? [];
  const filesByName = new Map<string, FileDescriptor>();
  for (const file of protoFiles) if (file.name !== undefined && !filesByName.has(file.name)) filesByName.set(file.name, file);
  const symbols = createSymbolTable(protoFiles);
  const filesToGenerate = request.file_to_generate ?? [];

  const problems = findSchemaProblems(filesToGenerate, filesByName, symbols);
  if (problems.length > 0) return { error: problems.join('\n'), supported_features, file: [] };

  const context = { symbols, insertionPoints: options.insertionPoints };
  const file: GeneratedFile[] = [];
  for (const name of filesToGenerate) {
    const descriptor = filesByName.get(name)!;
    const stem = outputStem(name)!;
    if (options.format !== 'ts') file.push(...chunkFile(`${stem}.md`, renderMarkdown(descriptor, context), options.chunk));
    if (options.format !== 'md') file.push(...chunkFile(`${stem}.d.ts`, renderTypeScript(descriptor, context), options.chunk));
  }
  return { supported_features, file };
}
