// What every file format of touchstone is written with: each format is written once, in
// TypeBox, next to the code that reads it; its TypeScript type is the schema's Static type and
// its JSON Schema file (`*.schema.json`, validated by Ajv, read by editors) is generated from
// it (`npm run schemas`; a test fails when a committed file differs).
//
// TypeBox writes most of JSON Schema as it is; the helpers below write the few keywords its
// builders do not (`oneOf`, `const` without a `type`, a list of types, a map with
// `additionalProperties`, a pair as `prefixItems`, an object holding one of several groups of
// properties, `$defs` and `$ref`), each with the static type the keyword means, so
// the generated schema says exactly what the formats always said.
import {
  Type,
  type Static,
  type TObject,
  type TObjectOptions,
  type TProperties,
  type TSchema,
  type TSchemaOptions,
  type TUnsafe,
} from 'typebox';

const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/** Exactly one of `schemas` (JSON Schema's oneOf; TypeBox's Union writes anyOf). */
export function oneOf<T extends TSchema[]>(schemas: [...T], options: TSchemaOptions = {}): TUnsafe<Static<T[number]>> {
  return Type.Unsafe<Static<T[number]>>({ ...options, oneOf: schemas });
}

/** The one value `value` (a bare `const`, as the formats write it; TypeBox's Literal adds a `type`). */
export function constant<const V extends string | number | boolean>(value: V, options: TSchemaOptions = {}): TUnsafe<V> {
  return Type.Unsafe<V>({ ...options, const: value });
}

interface JsonTypes {
  string: string;
  number: number;
  integer: number;
  boolean: boolean;
  null: null;
}

/** A value of any of these JSON types (`"type": ["string", "number"]`). */
export function anyType<const K extends (keyof JsonTypes)[]>(types: K, options: TSchemaOptions = {}): TUnsafe<JsonTypes[K[number]]> {
  return Type.Unsafe<JsonTypes[K[number]]>({ type: types, ...options });
}

/** `schema` with a description of its own (for a `$ref`, which the definition's description does not fit everywhere). */
export function described<T extends TSchema>(schema: T, description: string): TUnsafe<Static<T>> {
  return Type.Unsafe<Static<T>>({ description, ...schema });
}

/** An object from any name to `value` (`additionalProperties`; TypeBox's Record writes patternProperties). */
export function nameMap<T extends TSchema>(value: T, options: TSchemaOptions = {}): TUnsafe<Record<string, Static<T>>> {
  return Type.Unsafe<Record<string, Static<T>>>({ type: 'object', ...options, additionalProperties: value });
}

/** A pair (`prefixItems` of exactly two; TypeBox's Tuple adds `items: false`). */
export function pair<A extends TSchema, B extends TSchema>(first: A, second: B): TUnsafe<[Static<A>, Static<B>]> {
  return Type.Unsafe<[Static<A>, Static<B>]>({ type: 'array', prefixItems: [first, second], minItems: 2, maxItems: 2 });
}

/** One object type of an intersection, so editors and errors show its fields. */
type Flat<T> = { [K in keyof T]: T[K] };
type OneGroup<S, Group, All extends PropertyKey> = Group extends readonly (infer K extends keyof S)[]
  ? Flat<{ [Q in K]-?: Exclude<S[Q], undefined> } & Omit<S, All>>
  : never;
type Grouped<P extends TProperties, G extends readonly (readonly (keyof P)[])[]> = OneGroup<
  Static<TObject<P>>,
  G[number],
  G[number][number]
>;

/**
 * An object holding exactly one of `groups` (a oneOf of `required` lists), each group's
 * properties together, the other properties optional beside it. `properties` declares every
 * property as optional; the static type is the union of the groups, so code can tell them apart.
 */
export function oneGroupOf<P extends TProperties, const G extends readonly (keyof P & string)[][]>(
  properties: P,
  groups: G,
  options: TObjectOptions = {},
): TUnsafe<Grouped<P, G>> {
  return Type.Unsafe<Grouped<P, G>>({ ...Type.Object(properties, options), oneOf: groups.map((group) => ({ required: group })) });
}

/**
 * The `$defs` of one schema document. `define` files a schema under a name and returns a
 * `$ref` to it with the schema's static type, so a shape used in several places is written
 * (and shown in editors and errors) once, as the hand-written schemas did.
 */
export class Definitions {
  readonly $defs: Record<string, TSchema> = {};

  define<T extends TSchema>(name: string, schema: T): TUnsafe<Static<T>> {
    if (name in this.$defs) throw new Error(`$defs/${name} is defined twice`);
    this.$defs[name] = schema;
    return Type.Unsafe<Static<T>>({ $ref: `#/$defs/${name}` });
  }
}

export interface SchemaHeader {
  $id: string;
  title: string;
  description?: string;
}

/** The JSON Schema document of a format: its header, its root schema and its `$defs`, as plain JSON. */
export function schemaDocument(header: SchemaHeader, root: TSchema, definitions?: Definitions): object {
  const defs = definitions && Object.keys(definitions.$defs).length > 0 ? { $defs: definitions.$defs } : {};
  return JSON.parse(JSON.stringify({ $schema: JSON_SCHEMA_DIALECT, ...header, ...root, ...defs })) as object;
}

/** A generated schema file: its path from the project's root, and the document it holds. */
export interface SchemaFile {
  path: string;
  document: object;
}

/** The schema file at `path` (from the project's root) holding the format's document. */
export function schemaFile(path: string, header: SchemaHeader, root: TSchema, definitions?: Definitions): SchemaFile {
  return { path, document: schemaDocument(header, root, definitions) };
}
