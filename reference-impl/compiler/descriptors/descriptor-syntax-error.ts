// protobufjs's parser errors ("illegal token 'x', ';' expected (line 4)", "duplicate id 1 in
// Type .A") rewritten as protoc's error lines. protobufjs does not say which grammar rule
// failed, so the texts are protoc's for the cases below (checked against protoc 3.21) and a
// plain "Unexpected …" in protoc's "file:line:column: text" shape otherwise. Positions come
// from the source scan, since protobufjs knows lines only.
import { errorLine, type SourcePosition } from './descriptor-errors.js';
import type { SourceScan } from './descriptor-source-scan.js';
import { tokenizeProto, type SourceToken } from './descriptor-source-tokens.js';

const EXPECTED: Record<string, string> = {
  integer: 'Expected integer for field default value.',
  id: 'Expected integer.',
  name: 'Expected identifier.',
  'type name': 'Expected message name.',
  'service name': 'Expected service name.',
  type: 'Expected type name.',
  reference: 'Expected type name.',
};
const BLOCKS = new Set(['message', 'enum', 'service', 'oneof', 'extend', 'group']);

export function describeParseError(file: string, error: unknown, source: string, scan: SourceScan): string[] {
  const message = error instanceof Error ? error.message : String(error);
  const tokens = tokenizeProto(source);
  const located = /^illegal (.+?)(?: '(.*?)')?(?:, '(.*)' expected)? \((?:.*, )?line (\d+)\)$/.exec(message);
  if (located) return locatedError(file, located, tokens, source, scan);

  const pkg = scan.package ? `${scan.package}.` : '';
  const relative = (fullName: string): string => (fullName.startsWith(pkg) ? fullName.slice(pkg.length) : fullName);
  const fieldsOf = (type: string): [string, { number?: string; numberAt?: SourcePosition }][] =>
    [...scan.fields]
      .filter(([key]) => key.slice(0, Math.max(key.lastIndexOf('.'), 0)) === relative(type))
      .map(([key, f]) => [key.slice(key.lastIndexOf('.') + 1), f]);
  let m: RegExpExecArray | null;
  if ((m = /^duplicate id (\d+) in Type \.?(.*)$/.exec(message))) {
    const same = fieldsOf(m[2]).filter(([, f]) => numberOf(f.number) === BigInt(m![1]));
    const by = same.length >= 2 ? ` by field "${same[0][0]}"` : '';
    return [errorLine(file, same[1]?.[1].numberAt, `Field number ${m[1]} has already been used in "${m[2]}"${by}.`)];
  }
  if ((m = /^duplicate id (-?\d+) in Enum \.?(.*)$/.exec(message))) {
    const same = (scan.enumValues.get(relative(m[2])) ?? []).filter((v) => numberOf(v.number) === BigInt(m![1]));
    if (same.length >= 2) {
      return [
        errorLine(
          file,
          same[1].numberAt,
          `"${same[1].name}" uses the same enum value as "${same[0].name}". If this is intended, set 'option allow_alias = true;' to the enum definition.`,
        ),
      ];
    }
  }
  if ((m = /^duplicate name '(.*)' in \w+ ?\.?(.*)$/.exec(message))) {
    const at = scan.names.get(relative(m[2] ? `${m[2]}.${m[1]}` : m[1]));
    return [errorLine(file, at, m[2] ? `"${m[1]}" is already defined in "${m[2]}".` : `"${m[1]}" is already defined.`)];
  }
  if ((m = /^id (\d+) is reserved in Type \.?(.*)$/.exec(message))) {
    const field = fieldsOf(m[2]).find(([, f]) => numberOf(f.number) === BigInt(m![1]));
    return [
      errorLine(file, undefined, field ? `Field "${field[0]}" uses reserved number ${m[1]}.` : `Number ${m[1]} is reserved in "${m[2]}".`),
    ];
  }
  if (message === 'field must be a Field') {
    // protobufjs's parser cannot put a group inside a oneof (protoc can).
    return [
      errorLine(file, undefined, "A group inside a oneof is not supported by touchstone's .proto parser (protobufjs cannot represent it)."),
    ];
  }
  if ((m = /^name '(.*)' is reserved in \w+ \.?(.*)$/.exec(message)))
    return [errorLine(file, scan.names.get(relative(`${m[2]}.${m[1]}`)), `Field name "${m[1]}" is reserved.`)];
  return [errorLine(file, undefined, message)];
}

function locatedError(file: string, m: RegExpExecArray, tokens: SourceToken[], source: string, scan: SourceScan): string[] {
  const [, what, token, expected, lineText] = m;
  const line = Number(lineText);
  if (token === 'null' || what === 'end of input') {
    const end = endOf(source);
    const block = unclosedBlock(tokens);
    const reached = block ? [errorLine(file, end, `Reached end of input in ${block} definition (missing '}').`)] : [];
    if (expected !== undefined) return [errorLine(file, end, `Expected "${expected}".`), ...reached];
    return reached.length > 0 ? reached : [errorLine(file, end, 'Unexpected end of input.')];
  }
  const quote = token === '"' || token === "'";
  // protobufjs keeps a sign on its number tokens; ours (like protoc's) are '-' then the number.
  const matches = (t: SourceToken, i: number): boolean =>
    t.text === token ||
    t.text.slice(1, -1) === token ||
    (quote && t.kind === 'string' && t.text.startsWith(token)) ||
    (t.text === '-' && `-${tokens[i + 1]?.text}` === token);
  const index = tokens.findIndex((t, i) => t.at.line === line && matches(t, i));
  const at = tokens[index]?.at ?? { line, column: 1 };
  if (token === 'package' && scan.package !== undefined) return [errorLine(file, at, 'Multiple package definitions.')];
  if (token === 'required' && scan.syntax?.value === 'proto3')
    return [errorLine(file, tokens[index + 1]?.at ?? at, 'Required fields are not allowed in proto3.')];
  if (expected === '=' && tokens[index - 1]?.kind === 'ident') {
    // `Type name` without `= N` in a message, or `NAME` without `= N` in an enum.
    const inEnum = ['{', ';'].includes(tokens[index - 2]?.text ?? '');
    return [errorLine(file, at, inEnum ? 'Missing numeric value for enum constant.' : 'Missing field number.')];
  }
  if (expected !== undefined) return [errorLine(file, at, `Expected "${expected}".`)];
  if (tokens[index - 1]?.text === '<' && tokens[index - 2]?.text === 'map') {
    return [errorLine(file, tokens[index - 2].at, 'Key in map fields cannot be float/double, bytes or message types.')];
  }
  if (token === '<' && tokens[index - 1]?.text === 'map' && ['optional', 'required', 'repeated'].includes(tokens[index - 2]?.text ?? '')) {
    return [errorLine(file, at, 'Field labels (required/optional/repeated) are not allowed on map fields.')];
  }
  if (what === 'integer' && token?.startsWith('-'))
    return [errorLine(file, tokens[index + 1]?.at ?? at, "Unsigned field can't have negative default value.")];
  if (what === 'id' && tokens[index - 1]?.text === '=' && !['{', ';'].includes(tokens[index - 3]?.text ?? ''))
    return [errorLine(file, at, 'Expected field number.')];
  if (what === 'string') return [errorLine(file, at, 'Unterminated string literal.')];
  if (what === 'comment') return [errorLine(file, at, 'End-of-file inside block comment.')];
  return [errorLine(file, at, EXPECTED[what] ?? `Unexpected ${what === 'token' ? 'token' : what} "${token}".`)];
}

/** Where protoc reports the end of input: just after the last character. */
function endOf(source: string): SourcePosition {
  const lines = source.split('\n');
  return { line: lines.length, column: lines[lines.length - 1].length + 1 };
}

/** The kind of the innermost block still open at the end of input ("message", "enum" …). */
function unclosedBlock(tokens: SourceToken[]): string | undefined {
  const open: string[] = [];
  let statementStart = 0;
  tokens.forEach((t, i) => {
    if (t.text === '{') open.push(tokens[statementStart]?.text ?? '');
    else if (t.text === '}') open.pop();
    if (t.text === '{' || t.text === '}' || t.text === ';') statementStart = i + 1;
  });
  const innermost = open[open.length - 1];
  if (innermost === undefined) return undefined;
  return BLOCKS.has(innermost) ? innermost : 'message';
}

function numberOf(text: string | undefined): bigint | undefined {
  if (!text) return undefined;
  const negative = text.startsWith('-');
  const digits = negative ? text.slice(1) : text;
  try {
    const value = /^0[0-7]+$/.test(digits) ? BigInt(`0o${digits.slice(1)}`) : BigInt(digits);
    return negative ? -value : value;
  } catch {
    return undefined;
  }
}
