// Parses an RFC 8288 `link` header into relation -> URL (resolved against the request URL).
// Link values are `<URI>` followed by `; name=value` parameters, separated by commas; a
// quoted parameter value may itself hold commas and semicolons. A value without a `rel`, or
// whose URI does not parse, is skipped: the pagination checks then report the relation as
// missing, which is the finding a user needs.
//
// Hand-written, not http-link-header: that library throws on the whole header at its first
// malformed value (`garbage, <https://x/?page=3>; rel=last` loses `last` too), and keeps a value
// whose URI does not parse (`<bad uri>; rel=next` gives next = "bad uri"). A conformance check
// must find each relation the target did send correctly and flag only the broken one.
export type LinkRelations = Map<string, URL>;

const LINK_VALUE = /<([^>]*)>((?:\s*;\s*[^;,"]*(?:"[^"]*"[^;,"]*)*)*)/g;
const REL_PARAMETER = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,"]+))/i;

export function parseLinkHeader(value: string | undefined, base: string): LinkRelations {
  const relations: LinkRelations = new Map();
  if (!value) return relations;
  for (const match of value.matchAll(LINK_VALUE)) {
    const rel = REL_PARAMETER.exec(match[2]);
    if (!rel) continue;
    let url: URL;
    try {
      url = new URL(match[1], base);
    } catch {
      continue;
    }
    // rel may name several relations at once: rel="prev first".
    for (const name of (rel[1] ?? rel[2]).trim().split(/\s+/)) if (name) relations.set(name.toLowerCase(), url);
  }
  return relations;
}
