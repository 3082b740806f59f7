// The cassette contract (DESIGN "Cassette format"): one deterministic JSON file per
// cassette, validated against cassette.schema.json whenever it is read. The format is
// written once, below, in TypeBox: the schema file is generated from it (`npm run schemas`)
// and the types are its static types. Everything the proxy, the exports and the diff know
// about a recording is in these types.
//
// Decisions where the issue is silent:
// - Absolute URLs of the recorded target (and of the recording proxy) are stored with
//   the fixed origin RECORDED_ORIGIN, so a recording does not depend on the port the
//   target happened to listen on, and replay rewrites it to its own origin.
// - The request's `host` header is stored as RECORDED_HOST for the same reason.
// - A cassette has one `recordedAt`; re-recording identical traffic keeps the old one
//   (the store compares content), so the same traffic gives a byte-identical file.
// - `incomplete` is optional, not a version bump: every cassette of version 1 stays valid, and
//   an older touchstone refuses a marked one (additionalProperties) rather than replaying it.
import { Type, type Static } from 'typebox';
import { RECORDED_ORIGIN } from '../core/results.js';
import { constant, Definitions, oneGroupOf, oneOf, pair, schemaFile, type SchemaFile } from '../core/schema-document.js';

export { RECORDED_ORIGIN };
export const CASSETTE_VERSION = 1;
export const CASSETTE_SUFFIX = '.cassette.json';
export const RECORDED_HOST = new URL(RECORDED_ORIGIN).host;

/**
 * The sidecars of `name.cassette.json` live in `name.blobs/` beside it: owned by that one
 * cassette, so compaction can remove the ones it no longer references.
 */
export function sidecarFolder(cassetteFile: string): { prefix: string } {
  const base = cassetteFile.slice(cassetteFile.lastIndexOf('/') + 1);
  return { prefix: `${base.endsWith(CASSETTE_SUFFIX) ? base.slice(0, -CASSETTE_SUFFIX.length) : base}.blobs` };
}

/** Bodies up to this size are kept inline as json or text. */
export const INLINE_TEXT_LIMIT = 1024 * 1024;
/** Binary bodies up to this size are inline base64; anything bigger is a sidecar. */
export const INLINE_BINARY_LIMIT = 16 * 1024;

export const CONTENT_CODINGS = ['gzip', 'br', 'deflate'] as const;
export type ContentCoding = (typeof CONTENT_CODINGS)[number];

const cassetteDefs = new Definitions();
const SafeCount = cassetteDefs.define('safeCount', Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }));
const Headers = cassetteDefs.define('headers', Type.Array(pair(Type.String({ minLength: 1 }), Type.String())));
const Base64 = cassetteDefs.define('base64', Type.String({ pattern: '^[A-Za-z0-9+/]*={0,2}$' }));
const Sha256 = cassetteDefs.define('sha256', Type.String({ pattern: '^[0-9a-f]{64}$' }));
/** A sidecar's path, relative to the cassette's folder. */
const Sidecar = cassetteDefs.define('sidecar', Type.String({ minLength: 1 }));
const ContentCodingSchema = Type.Enum(CONTENT_CODINGS);

/**
 * The wire bytes themselves, kept only when re-encoding the decoded bytes with
 * node:zlib's defaults does not reproduce them (another compressor or level).
 */
const Encoded = cassetteDefs.define(
  'encoded',
  oneOf([
    Type.Object({ base64: Base64 }, { additionalProperties: false }),
    Type.Object({ file: Sidecar, sha256: Sha256, size: SafeCount }, { additionalProperties: false }),
  ]),
);

/** Exactly one representation of the (decoded) bytes, with how the wire carried them. */
const BodySchema = oneGroupOf(
  {
    /** The bytes on the wire were this coding of the stored (decoded) bytes. */
    contentEncoding: Type.Optional(ContentCodingSchema),
    /** Only when JSON.stringify(JSON.parse(bytes)) reproduces the bytes. */
    json: Type.Optional(Type.Unknown()),
    /** Valid UTF-8. */
    text: Type.Optional(Type.String()),
    base64: Type.Optional(Base64),
    file: Type.Optional(Sidecar),
    sha256: Type.Optional(Sha256),
    size: Type.Optional(SafeCount),
    encoded: Type.Optional(Encoded),
  },
  [['json'], ['text'], ['base64'], ['file', 'sha256', 'size']],
  {
    additionalProperties: false,
    dependentRequired: { file: ['sha256', 'size'], sha256: ['file', 'size'], size: ['file', 'sha256'], encoded: ['contentEncoding'] },
  },
);
const BodyRef = cassetteDefs.define('body', BodySchema);
export type Body = Static<typeof BodySchema>;
/** A body's representation of the bytes alone, without how the wire carried them. */
export type BodyData = Body extends infer B ? (B extends unknown ? Omit<B, 'contentEncoding' | 'encoded'> : never) : never;

/**
 * A request body too big to keep inline (one that would need a sidecar): only its digest
 * is stored, because replay never sends a request body and matching needs only the
 * digest. So a cassette never carries megabytes of what a client sent (an oversized
 * upload, a padding test) just to recognise the request again.
 *
 * Decision: it declares `file` as a property that can never be present. To Ajv that says
 * nothing new (additionalProperties already refused it), but its static type gets
 * `file?: never`, and that is what tells it from a sidecar body (file, sha256, size) in
 * TypeScript: without it a sidecar body would also be a DigestOnlyBody, and isDigestOnly
 * could not narrow. Cassettes on disk are unchanged.
 */
const DigestOnlyBodySchema = Type.Object(
  {
    contentEncoding: Type.Optional(ContentCodingSchema),
    sha256: Sha256,
    size: SafeCount,
    file: Type.Optional(Type.Never({ description: 'never present: a body with a file is a sidecar body, not a digest-only one' })),
  },
  { description: 'a request body too big to keep inline: only its digest, which is all matching needs', additionalProperties: false },
);
export type DigestOnlyBody = Static<typeof DigestOnlyBodySchema>;

const RecordedRequestSchema = Type.Object(
  {
    method: Type.String({ pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$" }),
    /** Path and query exactly as sent (origin-relative). */
    url: Type.String({ minLength: 1 }),
    headers: Headers,
    body: Type.Optional(oneOf([BodyRef, cassetteDefs.define('digestOnlyBody', DigestOnlyBodySchema)])),
  },
  { additionalProperties: false },
);
export type RecordedRequest = Static<typeof RecordedRequestSchema>;

const RecordedResponseSchema = Type.Object(
  {
    status: Type.Integer({ minimum: 100, maximum: 999 }),
    /** Only when it differs from node's standard reason phrase for the status. */
    statusText: Type.Optional(Type.String()),
    headers: Headers,
    body: Type.Optional(BodyRef),
  },
  { additionalProperties: false },
);
export type RecordedResponse = Static<typeof RecordedResponseSchema>;

const InteractionSchema = Type.Object(
  {
    /** 1-based position in request-start order. */
    seq: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
    request: cassetteDefs.define('request', RecordedRequestSchema),
    response: cassetteDefs.define('response', RecordedResponseSchema),
  },
  { additionalProperties: false },
);
export type Interaction = Static<typeof InteractionSchema>;

const CassetteSchema = Type.Object(
  {
    cassetteVersion: constant(CASSETTE_VERSION),
    name: Type.String({ minLength: 1 }),
    recordedAt: Type.String({ format: 'date-time' }),
    /**
     * A crash ended the recording (its journal was recovered, cassette-store.ts): it may lack
     * requests the session went on to make, so replay refuses it and record mode once records it
     * again. Absent on every cassette a recorder closed.
     */
    incomplete: Type.Optional(Type.Literal(true)),
    /** Where redaction replaced something, e.g. "request.headers.authorization"; sorted, unique. */
    redactions: Type.Array(Type.String({ minLength: 1 }), { uniqueItems: true }),
    interactions: Type.Array(cassetteDefs.define('interaction', InteractionSchema)),
  },
  { additionalProperties: false },
);
export type Cassette = Static<typeof CassetteSchema>;

export const cassetteSchemaFile: SchemaFile = schemaFile(
  'harness/cassette/cassette.schema.json',
  { $id: 'touchstone:cassette', title: 'touchstone cassette (*.cassette.json), version 1' },
  CassetteSchema,
  cassetteDefs,
);

export const isDigestOnly = (body: Body | DigestOnlyBody): body is DigestOnlyBody => !('file' in body) && 'sha256' in body;

/** What a recording keeps of a request body: a sidecar's digest only (see DigestOnlyBody). */
export function requestBodyToKeep(body: Body): Body | DigestOnlyBody {
  if (!('file' in body)) return body;
  return { sha256: body.sha256, size: body.size, ...(body.contentEncoding && { contentEncoding: body.contentEncoding }) };
}
