// How the console and every report name what a run judged: a URL, the embedded reference, a
// plugin or compiler command, and whether it was recorded or replayed (and from where).
import { RECORDED_ORIGIN, type Results } from '../core/results.js';

export function describeTarget(results: Pick<Results, 'kind' | 'target'>): string {
  const { url, embedded, recordings } = results.target;
  const named = results.kind === 'service' ? (embedded ? `embedded reference (${url})` : url) : `the ${results.kind} \`${url}\``;
  if (!recordings) return named;
  if (recordings.mode === 'record') return `${named}, recording into ${recordings.folder}`;
  // A replay contacts nothing: the URL only says what the recordings stand for, and
  // RECORDED_ORIGIN (no --target named) stands for nothing worth printing.
  const of = results.kind !== 'service' ? ` of ${named}` : url === RECORDED_ORIGIN ? '' : ` of ${url}`;
  return `the recordings in ${recordings.folder}${of}`;
}
