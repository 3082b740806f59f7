// Problems in the schema files that prevent correct generation. The spec's answer to them is
// CodeGeneratorResponse.error with exit status 0 (the compiler prints it as
// `--touchstone_out: <error>`), so each is a sentence naming the file and the element.
// Chosen because each would otherwise produce a wrong output rather than no output:
// - a file_to_generate absent from proto_file: there is nothing to describe;
// - a .proto name from which no safe relative output name follows, or two files that would
//   write the same output;
// - a type reference (field type, extendee, method input/output) that names nothing in the
//   request, or names an enum where a message is needed (or the reverse).
import type { FieldDescriptor, FileDescriptor, MessageDescriptor } from './descriptor-types.js';
import { outputStem } from './output-names.js';
import type { SymbolTable } from './symbol-table.js';

export function findSchemaProblems(
  filesToGenerate: readonly string[],
  filesByName: ReadonlyMap<string, FileDescriptor>,
  symbols: SymbolTable,
): string[] {
  const problems: string[] = [];
  const stems = new Map<string, string>();
  for (const name of filesToGenerate) {
    const stem = outputStem(name);
    if (stem === undefined) {
      problems.push(
        `${name}: no safe output file name can be derived from this name (it is empty or absolute, or has a backslash, control character, or an empty, "." or ".." component)`,
      );
    } else if (stems.has(stem)) {
      problems.push(`${name}: its outputs (${stem}.*) would overwrite those of ${stems.get(stem)}`);
    } else {
      stems.set(stem, name);
    }
    const file = filesByName.get(name);
    if (!file) {
      problems.push(`${name}: listed in file_to_generate but absent from proto_file`);
      continue;
    }
    problems.push(...typeReferenceProblems(file, symbols).map((problem) => `${name}: ${problem}`));
  }
  return problems;
}

function typeReferenceProblems(file: FileDescriptor, symbols: SymbolTable): string[] {
  const problems: string[] = [];
  const pkg = file.package ? `${file.package}.` : '';
  const checkField = (field: FieldDescriptor, owner: string) => {
    const where = `field ${owner}.${field.name ?? ''}`;
    const needs = expectedKind(field);
    if (needs) problems.push(...referenceProblem(where, field.type_name, needs, symbols));
    if (field.extendee !== undefined) problems.push(...referenceProblem(`extendee of ${where}`, field.extendee, 'message', symbols));
  };
  const walk = (messages: MessageDescriptor[] | undefined, prefix: string) => {
    for (const message of messages ?? []) {
      const fullName = `${prefix}${message.name ?? ''}`;
      for (const field of message.field ?? []) checkField(field, fullName);
      for (const field of message.extension ?? []) checkField(field, fullName);
      walk(message.nested_type, `${fullName}.`);
    }
  };
  walk(file.message_type, pkg);
  for (const field of file.extension ?? []) checkField(field, file.package ?? '');
  for (const service of file.service ?? []) {
    for (const method of service.method ?? []) {
      const where = `method ${pkg}${service.name ?? ''}.${method.name ?? ''}`;
      problems.push(...referenceProblem(`input of ${where}`, method.input_type, 'message', symbols));
      problems.push(...referenceProblem(`output of ${where}`, method.output_type, 'message', symbols));
    }
  }
  return problems;
}

/** Which kind of declaration the field's type_name must name, if it must name one. */
function expectedKind(field: FieldDescriptor): 'message' | 'enum' | 'any' | undefined {
  switch (field.type) {
    case 'TYPE_MESSAGE':
    case 'TYPE_GROUP':
      return 'message';
    case 'TYPE_ENUM':
      return 'enum';
    case undefined:
      // A descriptor may leave `type` out and let type_name decide (descriptor.proto allows it).
      return field.type_name === undefined ? undefined : 'any';
    default:
      return undefined;
  }
}

function referenceProblem(where: string, typeName: string | undefined, needs: 'message' | 'enum' | 'any', symbols: SymbolTable): string[] {
  if (typeName === undefined || typeName === '') return [`${where} has no type name`];
  if (!typeName.startsWith('.'))
    return [`${where}: type "${typeName}" is not fully qualified (descriptors in a request must use ".package.Name")`];
  const symbol = symbols.find(typeName);
  if (!symbol) return [`${where}: type "${typeName}" is not defined in any file of the request`];
  if (needs !== 'any' && symbol.kind !== needs)
    return [
      `${where}: type "${typeName}" is ${symbol.kind === 'enum' ? 'an enum' : 'a message'}, not ${needs === 'enum' ? 'an enum' : 'a message'}`,
    ];
  return [];
}
