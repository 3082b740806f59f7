// Reads cassettes as data, never as code: JSON.parse, a scan for prototype keys, the
// version gate, the JSON Schema, then the rules a schema cannot say (sidecar paths stay
// inside the cassette's folder, seq increases, base64 is canonical). Every refusal is a
// HarnessError('CONFIG') naming the file and the place, because cassettes are reviewed
// and hand-edited, and "invalid cassette" alone helps nobody.
import { createHash } from 'node:crypto';
import { readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { HarnessError } from '../core/errors.js';
import { compileSchemaFile, createAjv } from '../core/validated-file.js';
import { describeSchemaErrors } from '../../lib/located-yaml.js';
import { encodeContent, inlineBodyBytes } from './body-codec.js';
import { strictUtf8Text } from '../core/strict-utf8.js';
import { CASSETTE_VERSION, isDigestOnly, type Body, type BodyData, type Cassette } from './cassette-format.js';
import { projectPath } from '../../lib/project-files.js';

const SCHEMA = projectPath('harness/cassette/cassette.schema.json');

/** Keys that reach Object.prototype anywhere; in our own structure also constructor/prototype. */
const ALWAYS_FORBIDDEN = new Set(['__proto__']);
const STRUCTURE_FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

export interface CassetteLoader {
  parse(text: string, file: string): Cassette;
  load(file: string): Cassette;
}

/** Compiles the schema once; hold one loader where many cassettes are read (the proxy). */
export function createCassetteLoader(): CassetteLoader {
  const validate = compileSchemaFile(createAjv(), SCHEMA);
  const parse = (text: string, file: string): Cassette => parseWith(validate, text, file);
  return {
    parse,
    load(file) {
      let bytes: Buffer;
      try {
        bytes = readFileSync(file);
      } catch (error) {
        throw new HarnessError('CONFIG', `${file}: cannot read cassette: ${(error as Error).message}`);
      }
      const text = strictUtf8Text(bytes);
      if (text === undefined) throw new HarnessError('CONFIG', `${file}: not a cassette: the file is not valid UTF-8`);
      return parse(text, file);
    },
  };
}

// Compiling the schema costs ~85 ms: one loader serves the whole process, made on first use.
let shared: CassetteLoader | undefined;

export function parseCassette(text: string, file: string): Cassette {
  return (shared ??= createCassetteLoader()).parse(text, file);
}

export function loadCassetteFile(file: string): Cassette {
  return (shared ??= createCassetteLoader()).load(file);
}

function parseWith(validate: ValidateFunction, text: string, file: string): Cassette {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new HarnessError('CONFIG', `${file}: not a cassette: not valid JSON: ${(error as Error).message}`);
  }
  // The walk costs seconds on a 100,000-interaction cassette; a key can only be forbidden if
  // its name appears in the text, spelt out or through a \u escape.
  if (/"(__proto__|constructor|prototype)"|\\u/.test(text)) refuseForbiddenKeys(data, file);
  checkVersion(data, file);
  if (!validate(data)) throw new HarnessError('CONFIG', `${file}: invalid cassette: ${describeSchemaErrors(validate.errors)}`);
  const cassette = data as Cassette;
  checkRules(cassette, file);
  return cassette;
}

/** Iterative, so a deeply nested body cannot overflow the stack before we refuse it. */
function refuseForbiddenKeys(root: unknown, file: string): void {
  const stack: Array<{ value: unknown; at: string; inData: boolean }> = [{ value: root, at: '', inData: false }];
  while (stack.length > 0) {
    const { value, at, inData } = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    for (const key of Object.keys(value)) {
      const where = `${at}/${key}`;
      if ((inData ? ALWAYS_FORBIDDEN : STRUCTURE_FORBIDDEN).has(key)) {
        throw new HarnessError(
          'CONFIG',
          `${file}: refused: key "${key}" at ${where} (cassettes are data; prototype keys are never accepted)`,
        );
      }
      // Only a body's `json` holds recorded data; every other level is our own structure.
      stack.push({ value: (value as Record<string, unknown>)[key], at: where, inData: inData || key === 'json' });
    }
  }
}

function checkVersion(data: unknown, file: string): void {
  const version =
    data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>).cassetteVersion : undefined;
  if (version === CASSETTE_VERSION) return;
  if (typeof version === 'number' && version > CASSETTE_VERSION) {
    throw new HarnessError(
      'CONFIG',
      `${file}: cassetteVersion ${version} was written by a newer touchstone; upgrade touchstone to read it (this one reads version ${CASSETTE_VERSION})`,
    );
  }
  const shown = version === undefined ? 'missing' : JSON.stringify(version);
  throw new HarnessError(
    'CONFIG',
    `${file}: cassetteVersion ${shown} is no longer supported (this touchstone reads version ${CASSETTE_VERSION}); re-record the cassette`,
  );
}

function checkRules(c: Cassette, file: string): void {
  const folder = path.dirname(path.resolve(file));
  let previous = 0;
  c.interactions.forEach((interaction, index) => {
    const at = `/interactions/${index}`;
    if (interaction.seq <= previous) {
      throw new HarnessError('CONFIG', `${file}: ${at}/seq ${interaction.seq} does not increase (previous seq is ${previous})`);
    }
    previous = interaction.seq;
    for (const side of ['request', 'response'] as const) {
      const body = interaction[side].body;
      if (!body || isDigestOnly(body)) continue;
      checkBodyData(body, folder, `${file}: ${at}/${side}/body`);
      if (body.encoded) checkBodyData(body.encoded, folder, `${file}: ${at}/${side}/body/encoded`);
    }
  });
}

function checkBodyData(data: BodyData, folder: string, where: string): void {
  if ('base64' in data && Buffer.from(data.base64, 'base64').toString('base64') !== data.base64) {
    throw new HarnessError('CONFIG', `${where}/base64 is not canonical base64 (padding or trailing bits differ from what it decodes to)`);
  }
  if ('file' in data) {
    const problem = sidecarPathProblem(data.file, folder);
    if (problem) throw new HarnessError('CONFIG', `${where}/file "${data.file}" ${problem}`);
  }
}

/** Why a relative path (a sidecar, a blob folder) is unsafe, judged on its text alone. */
export function relativePathProblem(file: string): string | undefined {
  if (file.includes('\\')) return 'contains a backslash; sidecar paths use forward slashes';
  if (file.includes('\0')) return 'contains a NUL character';
  if (path.posix.isAbsolute(file) || /^[A-Za-z]:/.test(file)) return 'is absolute; sidecar paths are relative to the cassette';
  if (file.split('/').some((s) => s === '..' || s === '.' || s === '')) return 'has an empty, "." or ".." segment';
  return undefined;
}

/** Why a sidecar path is unsafe, or undefined; containment is checked even though the text rules imply it. */
export function sidecarPathProblem(file: string, folder: string): string | undefined {
  const problem = relativePathProblem(file);
  if (problem) return problem;
  if (!isInside(path.resolve(folder, file), folder)) return "resolves outside the cassette's folder";
  return undefined;
}

function isInside(child: string, folder: string): boolean {
  return child.startsWith(folder.endsWith(path.sep) ? folder : folder + path.sep);
}

/** The stored (decoded) bytes of a body; a sidecar is checked against its sha256 and size. */
export function readBodyBytes(body: Body | BodyData, cassetteDir: string): Buffer {
  if (!('file' in body)) return inlineBodyBytes(body);
  const folder = path.resolve(cassetteDir);
  const problem = sidecarPathProblem(body.file, folder);
  if (problem) throw new HarnessError('CONFIG', `sidecar "${body.file}" ${problem}`);
  const full = path.resolve(folder, body.file);
  let bytes: Buffer;
  try {
    // A symlink inside the folder could still point anywhere.
    const real = realpathSync(full);
    if (!isInside(real, realpathSync(folder))) throw new Error("it links outside the cassette's folder");
    bytes = readFileSync(real);
  } catch (error) {
    throw new HarnessError('CONFIG', `sidecar ${full}: cannot read: ${(error as Error).message}`);
  }
  if (bytes.length !== body.size) {
    throw new HarnessError('CONFIG', `sidecar ${full}: size ${bytes.length} differs from the recorded ${body.size}`);
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (sha256 !== body.sha256)
    throw new HarnessError('CONFIG', `sidecar ${full}: sha256 ${sha256} differs from the recorded ${body.sha256}`);
  return bytes;
}

/** The bytes to put on the wire: the kept wire form, else the stored bytes re-encoded. */
export function readWireBytes(body: Body, cassetteDir: string): Buffer {
  if (body.encoded) return readBodyBytes(body.encoded, cassetteDir);
  const decoded = readBodyBytes(body, cassetteDir);
  return body.contentEncoding ? encodeContent(body.contentEncoding, decoded) : decoded;
}
