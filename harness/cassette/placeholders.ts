// What a recording keeps where a secret was: `<secret:NAME>` for a secret the user named,
// `<redacted>` for any other (secrets/secret-policy.ts), percent-encoded in URLs and form
// bodies. Read here for people: a log line or `cassette show` names which secrets were
// redacted and how often, never a value (there is none left to name).

/** %3Credacted%3E and %3Csecret%3ANAME%3E as a person reads them: <redacted>, <secret:NAME>. */
export const readablePlaceholders = (text: string): string =>
  text.replace(/%3C(redacted|secret%3A[\w.-]+)%3E/gi, (_, inner: string) => `<${inner.replace(/%3A/i, ':')}>`);

/** How many places hold each named secret's placeholder, and how many hold <redacted>. */
export function countPlaceholders(text: string): { secrets: { name: string; places: number }[]; redacted: number } {
  const readable = readablePlaceholders(text);
  const byName = new Map<string, number>();
  for (const [, name] of readable.matchAll(/<secret:([\w.-]+)>/g)) byName.set(name, (byName.get(name) ?? 0) + 1);
  return {
    secrets: [...byName].sort(([a], [b]) => a.localeCompare(b)).map(([name, places]) => ({ name, places })),
    redacted: readable.split('<redacted>').length - 1,
  };
}
