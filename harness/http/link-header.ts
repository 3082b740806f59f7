// Parses an RFC 8288 `link` header into relation -> URL (resolved against the request URL).
export type LinkRelations = Map<string, URL>;

export function parseLinkHeader(value: string | undefined, base: string): LinkRelations {
  const relations: LinkRelations = new Map();
  if (!value) return relations;
  for (const match of value.matchAll(/<([^>]*)>((?:\s*;\s*[^;,]+)*)/g)) {
    const rel = /;\s*rel\s*=\s*"?([^";,]+)"?/i.exec(match[2]);
    if (!rel) continue;
    let url: URL;
    try {
      url = new URL(match[1], base);
    } catch {
      continue;
    }
    for (const name of rel[1].trim().split(/\s+/)) relations.set(name.toLowerCase(), url);
  }
  return relations;
}
