// default_value as protoc 3.21 writes it: FieldDescriptor::DefaultValueAsString, i.e. the
// parsed value printed again, not the text as written: integers in decimal, floats with
// SimpleFtoa/SimpleDtoa (shortest of %.6g/%.9g resp. %.15g/%.17g that reads back), bytes
// C-escaped, strings raw. The literal as written (from the source scan) is preferred over
// protobufjs's value because protobufjs reads 64-bit integers into doubles.
import type { ScannedLiteral } from './descriptor-source-scan.js';
import { cEscape } from '../common/c-escape.js';

const INTEGER_TYPES = new Set([
  'TYPE_INT32',
  'TYPE_INT64',
  'TYPE_UINT32',
  'TYPE_UINT64',
  'TYPE_SINT32',
  'TYPE_SINT64',
  'TYPE_FIXED32',
  'TYPE_FIXED64',
  'TYPE_SFIXED32',
  'TYPE_SFIXED64',
]);

const UINT64_MAX = 2n ** 64n - 1n;
const RANGES: Record<string, [bigint, bigint]> = {
  TYPE_INT32: [-(2n ** 31n), 2n ** 31n - 1n],
  TYPE_SINT32: [-(2n ** 31n), 2n ** 31n - 1n],
  TYPE_SFIXED32: [-(2n ** 31n), 2n ** 31n - 1n],
  TYPE_UINT32: [0n, 2n ** 32n - 1n],
  TYPE_FIXED32: [0n, 2n ** 32n - 1n],
  TYPE_INT64: [-(2n ** 63n), 2n ** 63n - 1n],
  TYPE_SINT64: [-(2n ** 63n), 2n ** 63n - 1n],
  TYPE_SFIXED64: [-(2n ** 63n), 2n ** 63n - 1n],
  TYPE_UINT64: [0n, UINT64_MAX],
  TYPE_FIXED64: [0n, UINT64_MAX],
};

/** The default_value text for a scalar field, from the literal when known, else protobufjs's value; or protoc's error. */
export function formatScalarDefault(
  type: string,
  literal: ScannedLiteral | undefined,
  value: unknown,
): { text: string } | { error: string } {
  if (INTEGER_TYPES.has(type)) {
    const parsed = literal && literal.token.kind === 'number' ? parseIntegerLiteral(literal.token.text) : undefined;
    if (parsed === undefined) return { text: typeof value === 'number' ? BigInt(Math.trunc(value)).toString() : String(value) };
    const signed = literal!.negative ? -parsed : parsed;
    const [min, max] = RANGES[type];
    return signed < min || signed > max ? { error: 'Integer out of range.' } : { text: String(signed) };
  }
  if (type === 'TYPE_DOUBLE' || type === 'TYPE_FLOAT') {
    // An integer literal must fit in a uint64 even for a floating-point field (protoc reads it as one).
    const integer = literal?.token.kind === 'number' ? parseIntegerLiteral(literal.token.text) : undefined;
    if (integer !== undefined && integer > UINT64_MAX) return { error: 'Integer out of range.' };
    const number = literal ? literalNumber(literal) : typeof value === 'number' ? value : Number(value);
    return { text: type === 'TYPE_FLOAT' ? simpleFtoa(number) : simpleDtoa(number) };
  }
  if (type === 'TYPE_BOOL') return { text: String(value === true || value === 'true') };
  const bytes = literal?.bytes ?? latin1OrUtf8(String(value));
  return { text: type === 'TYPE_BYTES' ? cEscape(bytes) : new TextDecoder().decode(bytes) };
}

function parseIntegerLiteral(text: string): bigint | undefined {
  if (/^0[xX][0-9a-fA-F]+$/.test(text)) return BigInt(text);
  if (/^0[0-7]+$/.test(text)) return BigInt(`0o${text.slice(1)}`);
  if (/^[0-9]+$/.test(text)) return BigInt(text);
  return undefined;
}

function literalNumber(literal: ScannedLiteral): number {
  const text = literal.token.text;
  const integer = parseIntegerLiteral(text);
  const magnitude =
    integer !== undefined ? Number(integer) : /^inf(inity)?$/i.test(text) ? Infinity : /^nan$/i.test(text) ? NaN : parseFloat(text);
  return literal.negative ? -magnitude : magnitude;
}

export function simpleDtoa(value: number): string {
  const special = nonFinite(value);
  if (special) return special;
  const short = formatG(value, 15);
  return Number(short) === value ? short : formatG(value, 17);
}

export function simpleFtoa(value: number): string {
  const single = Math.fround(value);
  const special = nonFinite(single);
  if (special) return special;
  const short = formatG(single, 6);
  return Math.fround(Number(short)) === single ? short : formatG(single, 9);
}

function nonFinite(value: number): string | undefined {
  if (Number.isNaN(value)) return 'nan';
  if (value === Infinity) return 'inf';
  if (value === -Infinity) return '-inf';
  return undefined;
}

/**
 * C's printf("%.<precision>g"). JavaScript rounds exact ties up where glibc rounds them to
 * even; a tie needs a double whose exact decimal expansion has precision + 1 digits, and
 * at precision 15 the read-back check then moves on to 17 digits, so only 18-digit exact
 * values could print differently.
 */
export function formatG(value: number, precision: number): string {
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  const [mantissa, exponentText] = value.toExponential(precision - 1).split('e');
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= precision) {
    const digits = String(Math.abs(exponent)).padStart(2, '0');
    return `${stripZeros(mantissa)}e${exponent < 0 ? '-' : '+'}${digits}`;
  }
  return stripZeros(value.toFixed(precision - 1 - exponent));
}

function stripZeros(text: string): string {
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

/** Without the literal (JSON definitions): code units below 256 are bytes (escapes), the rest UTF-8. */
function latin1OrUtf8(text: string): Uint8Array {
  const out: number[] = [];
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code < 0x100) out.push(code);
    else out.push(...new TextEncoder().encode(char));
  }
  return Uint8Array.from(out);
}
