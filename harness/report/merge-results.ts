// `touchstone report merge`: the shards of one run (--shard i/n, each on its own machine)
// joined into the results.json an unsharded run would have written. The verdict is judged
// again over every case: a shard alone only conforms for what its own cases cite.
// Refused, never guessed: parts judged by other suites, requirements or configuration, a
// missing or repeated shard, a case in two parts.
import { HarnessError } from '../core/errors.js';
import type { Requirement } from '../core/suite-format.js';
import type { Results } from '../core/results.js';
import { buildResults, requirementsInScope } from './build-results.js';

export interface Catalogue {
  /** The requirements of the parts' kind, from the registry whose hash is `fingerprint.requirements`. */
  requirements: Requirement[];
  /** Every case id in catalogue order, as an unsharded run lists them. */
  order: string[];
}

export function mergeResults(parts: Results[], catalogue: Catalogue): Results {
  if (parts.length === 0) throw new HarnessError('USAGE', 'name the report folders of the shards to merge');
  const [first] = parts;
  const same = (what: string, of: (r: Results) => unknown) => {
    const want = JSON.stringify(of(first));
    const odd = parts.find((p) => JSON.stringify(of(p)) !== want);
    if (odd)
      throw new HarnessError(
        'USAGE',
        `the parts differ in ${what} (${want} and ${JSON.stringify(of(odd))}): they are not shards of one run`,
      );
  };
  same('kind', (r) => r.kind);
  same('touchstone version', (r) => r.tool.version);
  same('fingerprint (suites, requirements or configuration)', (r) => r.fingerprint);
  same('strictness', (r) => r.strict);
  same('scope', (r) => ({ ...r.scope, shard: undefined }));
  checkShards(parts.map((p) => p.scope.shard));

  const place = new Map(catalogue.order.map((id, i) => [id, i]));
  const seen = new Set<string>();
  for (const c of parts.flatMap((p) => p.cases)) {
    if (seen.has(c.id)) throw new HarnessError('USAGE', `case ${c.id} is in more than one part`);
    if (!place.has(c.id)) throw new HarnessError('USAGE', `case ${c.id} is not in this touchstone's catalogue`);
    seen.add(c.id);
  }
  const cases = parts.flatMap((p) => p.cases).sort((a, b) => place.get(a.id)! - place.get(b.id)!);
  // As an unsharded run decides its scope (the shard itself no longer narrows it).
  const { scope } = first;
  const cited = new Set(cases.flatMap((c) => c.requirements));
  const started = Math.min(...parts.map((p) => Date.parse(p.started_at)));
  const finished = Math.max(...parts.map((p) => Date.parse(p.finished_at)));
  return buildResults(
    cases,
    requirementsInScope(catalogue.requirements, { ...scope, grepInvert: scope.grep_invert, shard: undefined }, cited),
    {
      kind: first.kind,
      target: first.target,
      startedAt: new Date(started),
      finishedAt: new Date(finished),
      strict: first.strict,
      version: first.tool.version,
      fingerprint: first.fingerprint,
      suites: scope.suites,
      only: scope.only,
      grep: scope.grep,
      grepInvert: scope.grep_invert,
      sharedState: parts.some((p) => p.gaps.shared_state),
    },
  );
}

/** Every part is a shard i/n of the same n, each i from 1 to n exactly once. */
function checkShards(shards: (string | undefined)[]): void {
  if (shards.some((s) => s === undefined))
    throw new HarnessError('USAGE', 'only the parts of a run with --shard i/n can be merged; one part has no shard');
  const parsed = shards.map((s) => s!.split('/').map(Number));
  const total = parsed[0][1];
  if (parsed.some(([, n]) => n !== total))
    throw new HarnessError('USAGE', `the parts are shards of different splits: ${shards.join(', ')}`);
  const present = new Set(parsed.map(([i]) => i));
  if (present.size !== shards.length) throw new HarnessError('USAGE', `a shard is given twice: ${shards.join(', ')}`);
  const missing = Array.from({ length: total }, (_, i) => i + 1).filter((i) => !present.has(i));
  if (missing.length > 0)
    throw new HarnessError(
      'USAGE',
      `shard ${missing.map((i) => `${i}/${total}`).join(', ')} is missing: a merge of some shards would judge a run it has not seen`,
    );
}
