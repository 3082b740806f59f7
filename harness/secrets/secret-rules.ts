// Which parts of an HTTP exchange are secret whatever the configuration says: the header names,
// JSON and form field names and query-string names of the secrets policy (secret-policy.ts),
// and the JSON paths its notes and jsonPaths name.
import type { PathStep } from './json-field-scrubber.js';

/**
 * JSON body fields whose values are secrets wherever they appear: the spec's own (a sealed
 * secret, an import password, tokens) and the names OAuth and API key responses use, so a
 * recorded token exchange keeps none of them. Not `key`: the secrets public key is a public
 * value a replayed client must get back as it was. Form fields of the same names are secret too.
 */
export const SECRET_BODY_FIELDS = [
  'encrypted_value',
  'vcs_password',
  'password',
  'token',
  'client_secret',
  'access_token',
  'refresh_token',
  'id_token',
  'api_key',
  'private_key',
] as const;
/** Headers whose value is a scheme and a credential: the scheme stays readable. */
export const SCHEME_HEADERS = new Set(['authorization', 'proxy-authorization']);
/** Headers whose whole value is secret (cookies are judged per cookie). */
export const SECRET_HEADERS = ['x-api-key', ...SCHEME_HEADERS];
/**
 * Query keys whose value is a secret, judged by the words of the name (split at `_`, `-`, `.`
 * and camelCase): `access_token`, `api_key`, `X-Amz-Signature`, `code` are; `keyword`,
 * `author`, `design`, `zipcode` and `encoding` are not (a pattern over the whole name once
 * hid them all). Run-together names common in the wild (`apikey`, `accesstoken`) count too.
 */
const SECRET_QUERY_WORDS = new Set([
  'token',
  'key',
  'secret',
  'sig',
  'signature',
  'password',
  'passwd',
  'pwd',
  'auth',
  'code',
  'credential',
  'session',
]);
const SECRET_QUERY_NAMES = new Set(['apikey', 'accesstoken', 'authtoken', 'clientsecret', 'sessionid', 'refreshtoken', 'idtoken']);
export const isSecretQueryName = (name: string) =>
  SECRET_QUERY_NAMES.has(name.toLowerCase()) ||
  name.split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/).some((word) => SECRET_QUERY_WORDS.has(word.toLowerCase()));

/** What replaces a secret nobody named (never a hash of it: see secret-policy.ts). */
export const REDACTED = '<redacted>';

/** `$.items[*].token`: what jsonPaths and notes name. */
export const genericPath = (steps: readonly PathStep[]): string =>
  `$${steps.map((s) => (typeof s === 'number' ? '[*]' : `.${s}`)).join('')}`;
/** `$.items[3].token`. */
export const concretePath = (steps: readonly PathStep[]): string =>
  `$${steps.map((s) => (typeof s === 'number' ? `[${s}]` : `.${s}`)).join('')}`;
