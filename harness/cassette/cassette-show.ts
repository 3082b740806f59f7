// `touchstone cassette show`: what a cassette holds, one line per interaction (method, URL,
// status, body sizes), and, while a recording of it is under way (or after one crashed), what
// its journal holds so far: the interactions recorded and the misses answered. Redactions are
// named (the fields the recorder noted, each named secret and how many places hold it), never
// a value: a cassette and a journal hold none.
//
// Decisions where the brief is silent:
// - A journal's interactions are listed apart from the cassette's, with what will happen to
//   them (they replace the cassette's, or are appended), since that is what stopping decides.
// - The fields redacted are the recorder's notes, which a journal does not carry (they are
//   written with the cassette): for a journal alone the secrets found are still listed.
// - Sizes are the bodies' sizes as replay sends them, before any content encoding.
import { existsSync } from 'node:fs';
import { HarnessError } from '../core/errors.js';
import { inlineBodyBytes } from './body-codec.js';
import { isDigestOnly, type Body, type DigestOnlyBody, type Interaction } from './cassette-format.js';
import { loadCassetteFile } from './cassette-load.js';
import { inspectJournal, type JournalMiss } from './cassette-store.js';
import { countPlaceholders, readablePlaceholders } from './placeholders.js';
import { plural } from '../core/plural.js';

const JOURNAL_SUFFIX = '.journal';

export interface ShownInteraction {
  seq: number;
  method: string;
  url: string;
  status: number;
  requestBytes: number;
  responseBytes: number;
}

export interface CassetteShow {
  file: string;
  /** The cassette on disk; undefined while its first recording is under way. */
  cassette?: { name: string; recordedAt: string; interactions: ShownInteraction[] };
  /** The journal of a recording under way (`recorder` is its pid) or of one that crashed (none). */
  journal?: {
    file: string;
    recorder?: number;
    /** What stopping does with its interactions: replace the cassette's, or append to them. */
    fate: 'replace' | 'append';
    interactions: ShownInteraction[];
    misses: JournalMiss[];
  };
  redactions: {
    /** Where the recorder redacted (request.headers.authorization, request.url, …); undefined until a cassette is written. */
    fields?: string[];
    secrets: { name: string; places: number }[];
    /** Places holding <redacted>: a secret nobody named. */
    redacted: number;
  };
}

const sizeOf = (body: Body | DigestOnlyBody | undefined): number =>
  !body ? 0 : isDigestOnly(body) || 'file' in body ? body.size : inlineBodyBytes(body).length;

const shown = ({ seq, request, response }: Interaction): ShownInteraction => ({
  seq,
  method: request.method,
  url: request.url,
  status: response.status,
  requestBytes: sizeOf(request.body),
  responseBytes: sizeOf(response.body),
});

/** FILE is a `*.cassette.json` or its `.journal`; either may be absent, not both. */
export function showCassette(path: string): CassetteShow {
  const file = path.endsWith(JOURNAL_SUFFIX) ? path.slice(0, -JOURNAL_SUFFIX.length) : path;
  const journal = inspectJournal(file);
  const onDisk = existsSync(file) ? loadCassetteFile(file) : undefined;
  if (!onDisk && !journal) throw new HarnessError('USAGE', `${path}: no such cassette, and no journal of one being recorded`);
  const held = [...(onDisk?.interactions ?? []), ...(journal?.interactions ?? [])];
  const found = countPlaceholders(JSON.stringify(held));
  return {
    file,
    ...(onDisk && { cassette: { name: onDisk.name, recordedAt: onDisk.recordedAt, interactions: onDisk.interactions.map(shown) } }),
    ...(journal && {
      journal: {
        file: journal.journal,
        ...(journal.holder !== undefined && { recorder: journal.holder }),
        fate: journal.header?.mode === 'record-missing' ? ('append' as const) : ('replace' as const),
        interactions: journal.interactions.map(shown),
        misses: journal.misses,
      },
    }),
    redactions: { ...(onDisk && { fields: onDisk.redactions }), secrets: found.secrets, redacted: found.redacted },
  };
}

const bytes = (n: number) =>
  n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`;
const line = (i: ShownInteraction) =>
  `  #${i.seq} ${i.method} ${readablePlaceholders(i.url)} -> ${i.status} (request ${bytes(i.requestBytes)}, response ${bytes(i.responseBytes)})`;

export function formatCassetteShow(show: CassetteShow): string {
  const out: string[] = [];
  const { cassette, journal, redactions } = show;
  if (cassette) {
    out.push(`${show.file}: ${plural(cassette.interactions.length, 'interaction')}, recorded ${cassette.recordedAt}`);
    out.push(...cassette.interactions.map(line));
  } else out.push(`${show.file}: not written yet`);
  if (journal) {
    const who =
      journal.recorder !== undefined
        ? `being recorded by process ${journal.recorder}`
        : 'left by a recording that did not finish (the next proxy start on it recovers it)';
    const fate = journal.interactions.length === 0 ? '' : journal.fate === 'append' ? ', to be appended' : ', to replace the cassette';
    out.push(`${journal.file}: ${who}: ${plural(journal.interactions.length, 'interaction')} so far${cassette ? fate : ''}`);
    out.push(...journal.interactions.map(line));
    if (journal.misses.length) out.push(`  ${plural(journal.misses.length, 'miss', 'misses')}:`);
    for (const m of journal.misses) out.push(`    ${m.method} ${readablePlaceholders(m.url)}: ${m.reason}`);
  }
  const fields = redactions.fields === undefined ? 'known once the cassette is written' : redactions.fields.join(', ') || 'none';
  out.push(`redacted: ${fields}`);
  const secrets = redactions.secrets.map((s) => `<secret:${s.name}> in ${plural(s.places, 'place')}`);
  if (redactions.redacted) secrets.push(`<redacted> in ${plural(redactions.redacted, 'place')}`);
  out.push(`secrets: ${secrets.join(', ') || 'none found'}`);
  return `${out.join('\n')}\n`;
}
