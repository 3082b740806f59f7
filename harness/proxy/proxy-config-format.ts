// The proxy's --config file (proxy-config.ts reads it), written once: its JSON Schema,
// proxy-config.schema.json, is generated from this (`npm run schemas`) and its type is the
// schema's static type. Its fields are those of MatchConfig (proxy-options.ts) and of
// RedactionConfig (cassette/redaction.ts) but `secrets`, which never sit in a config file.
import { Type, type Static } from 'typebox';
import { schemaFile, type SchemaFile } from '../core/schema-document.js';

const JsonPath = Type.String({ pattern: '^\\$' });

const ProxyConfigSchema = Type.Object(
  {
    match: Type.Optional(
      Type.Object(
        {
          /** Request headers that take part in matching (lower case, as HTTP tokens). */
          headers: Type.Optional(Type.Array(Type.String({ pattern: "^[a-z0-9!#$%&'*+.^_`|~-]+$" }), { uniqueItems: true })),
          /** Query keys left out of matching. */
          ignoreQuery: Type.Optional(Type.Array(Type.String(), { uniqueItems: true })),
          /** JSON paths left out of body matching. */
          ignoreBodyPaths: Type.Optional(Type.Array(JsonPath, { uniqueItems: true })),
          queryOrder: Type.Optional(Type.Enum(['any', 'exact'])),
        },
        { additionalProperties: false },
      ),
    ),
    redaction: Type.Optional(
      Type.Object(
        {
          headers: Type.Optional(Type.Array(Type.String())),
          queryParams: Type.Optional(Type.Array(Type.String())),
          bodyFields: Type.Optional(Type.Array(Type.String())),
          jsonPaths: Type.Optional(Type.Array(JsonPath)),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export type ProxyConfigFile = Static<typeof ProxyConfigSchema>;

export const proxyConfigSchemaFile: SchemaFile = schemaFile(
  'harness/proxy/proxy-config.schema.json',
  { $id: 'https://touchstone.dev/schemas/proxy-config.schema.json', title: 'touchstone proxy configuration (--config)' },
  ProxyConfigSchema,
);
