// The world's artifacts as data: a run's artifacts with series expanded, and the zip each
// one is. The artifacts endpoints serve them; `touchstone world export` writes them out, so
// an implementation loading the export serves the same bytes.
import { type Zippable, zipSync } from 'fflate';
import type { WorldArtifact, WorldWorkflowRun } from '../../world-model.js';

/** A run's artifacts, series expanded: NAME with {n} counting from 1, zero-padded to 3 digits, holding one file NAME.txt reading "NAME\n". */
export function expandArtifacts(run: WorldWorkflowRun): WorldArtifact[] {
  return run.artifacts.flatMap((entry) =>
    'series' in entry
      ? Array.from({ length: entry.series.count }, (_, i) => {
          const name = entry.series.name.replaceAll('{n}', String(i + 1).padStart(3, '0'));
          const { created_at, retention_days } = entry.series;
          return { id: entry.series.first_id + i, name, created_at, retention_days, files: { [`${name}.txt`]: `${name}\n` } };
        })
      : [entry],
  );
}

/** The artifact's zip: its files, each entry dated with the artifact's created_at (same bytes every time). */
export function artifactZip(artifact: WorldArtifact): Buffer {
  const mtime = new Date(artifact.created_at);
  const files: Zippable = Object.fromEntries(Object.entries(artifact.files).map(([p, text]) => [p, [Buffer.from(text), { mtime }]]));
  return Buffer.from(zipSync(files));
}
