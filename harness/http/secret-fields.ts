// JSON body fields whose values are secrets wherever they appear: the spec's own (a sealed
// secret, an import password, tokens) and the names OAuth and API key responses use, so a
// recorded token exchange keeps none of them. Not `key`: the secrets public key is a public
// value a replayed client must get back as it was. Cassettes (cassette/redaction.ts) and
// reports (exchange-record.ts) hide them.
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

/**
 * The JSON text with the value of every secret field (any depth) replaced by `placeholder`,
 * but for values `keep` accepts (a placeholder already there); other text as it is.
 */
export function hideSecretFields(text: string, placeholder: string, keep: (value: string) => boolean = () => false): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  const secret = new Set<string>(SECRET_BODY_FIELDS);
  let changed = false;
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node).map(([key, child]) => {
        if (secret.has(key.toLowerCase()) && (typeof child === 'string' || typeof child === 'number') && !keep(String(child))) {
          changed = true;
          return [key, placeholder];
        }
        return [key, walk(child)];
      }),
    );
  };
  const hidden = walk(value);
  return changed ? JSON.stringify(hidden) : text;
}
