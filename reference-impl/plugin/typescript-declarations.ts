// TypeScript declarations (`.d.ts`) of one .proto file: an interface per message giving its
// proto3 JSON form, a string-literal union per enum, an interface per service. Every property
// is optional because JSON printers omit fields at their default value; the proto declaration
// of each field (label, type, number, oneof) is in its doc comment, so proto3 `optional` and
// oneofs stay visible. Types from other files are imported from their generated declarations
// (type-only imports, so the output is valid under isolatedModules and NodeNext).
import type { FileDescriptor } from './descriptor-types.js';
import { enumsOf, messagesOf } from './descriptor-walk.js';
import { describeField, isMapEntry } from './field-shape.js';
import {
  defuseAnnotations,
  insertionAnnotation,
  INSERTION_POINT_EOF,
  INSERTION_POINT_IMPORTS,
  messageScopePoint,
} from './insertion-points.js';
import { arrayOf, jsonValueType } from './json-value-types.js';
import { outputStem, relativeModuleSpecifier } from './output-names.js';
import { createSourceComments, PATH } from './source-comments.js';
import { displayTypeName, localTypeName, type SymbolTable, type TypeSymbol } from './symbol-table.js';
import { createImportAliases, lowerCamelJsonName, propertyKey } from './typescript-names.js';

export interface TypeScriptContext {
  symbols: SymbolTable;
  insertionPoints: boolean;
}

export function renderTypeScript(file: FileDescriptor, context: TypeScriptContext): string {
  const stem = outputStem(file.name ?? '') ?? '';
  const comments = createSourceComments(file);
  const aliases = createImportAliases();
  const pkg = file.package ? `${file.package}.` : '';
  const body: string[] = [];

  const reference = (symbol: TypeSymbol): string => {
    if (symbol.file.name === file.name) return symbol.localName;
    return `${aliases.aliasFor(outputStem(symbol.file.name ?? '') ?? '')}.${symbol.localName}`;
  };
  const valueType = (field: Parameters<typeof jsonValueType>[0]) => jsonValueType(field, context.symbols.find(field.type_name), reference);

  const messages = messagesOf(file);
  for (const { message, relativeName, path } of messages) {
    if (!isMapEntry(message)) {
      body.push(...docComment(comments.comment(path), [], ''), `export interface ${localTypeName(relativeName)} {`);
      (message.field ?? []).forEach((field, fieldIndex) => {
        const shape = describeField(field, message, file, context.symbols);
        const type = shape.map
          ? `{ [key: string]: ${valueType(shape.map.value)} }`
          : field.label === 'LABEL_REPEATED'
            ? arrayOf(valueType(field))
            : valueType(field);
        const declaration = `\`${[shape.label, shape.protoType, field.name ?? '', '=', String(field.number ?? '')].filter(Boolean).join(' ')}\``;
        const notes = [
          declaration + (shape.oneof !== undefined ? `, in oneof \`${shape.oneof}\` (at most one member is set)` : ''),
          ...(field.options?.deprecated ? ['@deprecated'] : []),
        ];
        body.push(...docComment(comments.comment([...path, PATH.messageField, fieldIndex]), notes, '  '));
        body.push(`  ${propertyKey(field.json_name ?? lowerCamelJsonName(field.name ?? ''))}?: ${type};`);
      });
      if (context.insertionPoints) body.push(`  // ${insertionAnnotation(messageScopePoint(`${pkg}${relativeName}`))}`);
      body.push('}', '');
    }
  }

  for (const { relativeName, path, enumType } of enumsOf(file, messages)) {
    const names = (enumType.value ?? []).map((value) => JSON.stringify(value.name ?? ''));
    body.push(...docComment(comments.comment(path), [], ''));
    body.push(`export type ${localTypeName(relativeName)} = ${names.length > 0 ? names.join(' | ') : 'never'};`, '');
  }

  (file.service ?? []).forEach((service, index) => {
    const path = [PATH.fileService, index];
    body.push(...docComment(comments.comment(path), [], ''), `export interface ${localTypeName(service.name ?? '')} {`);
    (service.method ?? []).forEach((method, methodIndex) => {
      const input = messageReference(method.input_type, context.symbols, reference);
      const output = messageReference(method.output_type, context.symbols, reference);
      const notes = [
        `\`rpc ${method.name ?? ''}(${method.client_streaming ? 'stream ' : ''}${displayTypeName(method.input_type)}) returns (${method.server_streaming ? 'stream ' : ''}${displayTypeName(method.output_type)})\``,
      ];
      body.push(...docComment(comments.comment([...path, PATH.serviceMethod, methodIndex]), notes, '  '));
      const request = method.client_streaming ? `globalThis.AsyncIterable<${input}>` : input;
      // globalThis.: the file may declare messages named Promise or AsyncIterable.
      const response = method.server_streaming ? `globalThis.AsyncIterable<${output}>` : `globalThis.Promise<${output}>`;
      body.push(`  ${propertyKey(method.name ?? '')}(request: ${request}): ${response};`);
    });
    body.push('}', '');
  });

  const lines = [
    `// Generated by protoc-gen-touchstone from ${safeLineComment(file.name ?? '')}. Do not edit.`,
    '// Each interface is the proto3 JSON form of a message; every field may be absent because',
    '// JSON printers omit fields that hold their default value.',
    '',
    ...aliases
      .entries()
      .map(([target, alias]) => `import type * as ${alias} from ${JSON.stringify(relativeModuleSpecifier(stem, target))};`),
  ];
  if (context.insertionPoints) lines.push(`// ${insertionAnnotation(INSERTION_POINT_IMPORTS)}`);
  lines.push('');
  // A file without exports would be a script, not a module, and its imports would fail to resolve in other files.
  if (!body.some((line) => line.startsWith('export '))) body.push('export {};', '');
  lines.push(...body);
  if (context.insertionPoints) lines.push(`// ${insertionAnnotation(INSERTION_POINT_EOF)}`);
  return `${lines.join('\n').replace(/\n+$/, '')}\n`;
}

function messageReference(typeName: string | undefined, symbols: SymbolTable, reference: (symbol: TypeSymbol) => string): string {
  const symbol = symbols.find(typeName);
  return symbol ? jsonValueType({ type: 'TYPE_MESSAGE', type_name: typeName }, symbol, reference) : 'unknown';
}

/** A JSDoc block: the schema comment, then the notes; nothing when both are empty. */
function docComment(comment: string | undefined, notes: string[], indent: string): string[] {
  const paragraphs = [comment, notes.join('\n')].filter((part): part is string => part !== undefined && part !== '');
  if (paragraphs.length === 0) return [];
  const textLines = paragraphs.join('\n\n').split('\n').map(safeBlockComment);
  if (textLines.length === 1) return [`${indent}/** ${textLines[0]} */`];
  return [`${indent}/**`, ...textLines.map((line) => (line === '' ? `${indent} *` : `${indent} * ${line}`)), `${indent} */`];
}

// Schema text inside a comment must neither end the comment nor carry a working annotation.
function safeBlockComment(line: string): string {
  return defuseAnnotations(line.replace(/\*\//g, '*\\/'), '@ @');
}

function safeLineComment(text: string): string {
  return defuseAnnotations(text.replace(/[\r\n\u2028\u2029]/g, ' '), '@ @');
}
