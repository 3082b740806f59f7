// "did you mean …?" for a mistyped name: the closest of the names known, by edit distance.

/**
 * Edit distance: the fewest insertions, deletions, substitutions and swaps of two neighbouring
 * letters turning `a` into `b` (Levenshtein's, with the swap counted as one edit, as the
 * commonest typo: `opne` is one edit from `open`, not two).
 */
export function editDistance(a: string, b: string): number {
  const rows = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(rows[i - 1][j] + 1, row[j - 1] + 1, rows[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j], rows[i - 2][j - 2] + 1);
    }
    rows.push(row);
  }
  return rows[a.length][b.length];
}

/**
 * The known name closest to `name`, when it is close enough to be a typo of it: at most a
 * third of its letters changed (at least one). Of equally close names, the first known.
 */
export function closestName(name: string, known: Iterable<string>): string | undefined {
  const limit = Math.max(1, Math.floor(name.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of known) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}

/**
 * An unknown name refused with the closest known one and the list of them: "unknown suite
 * asignees (did you mean assignees?); known: artifacts, assignees, …". `what` says what they
 * name ("suite", "--kind").
 */
export function unknownNames(what: string, unknown: readonly string[], known: readonly string[]): string {
  const named = unknown.map((name) => {
    const near = closestName(name, known);
    return near === undefined ? name : `${name} (did you mean ${near}?)`;
  });
  return `unknown ${what} ${named.join(', ')}; known: ${known.join(', ')}`;
}
