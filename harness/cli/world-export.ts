// `touchstone world export`: the fixture world as data an implementation loads, not rules it
// must re-implement. The reference's own code expands it (world-loader.ts: user and app series,
// member and collaborator globs; world-expansion.ts: variable series; artifact-files.ts:
// artifact series and their zips; world-git.ts: file series, generated files and the Git
// objects), so the export holds what the reference serves. world.ts loads this file when
// the command runs: the CLI's module graph stays free of the reference.
//
// Decisions where the brief is silent:
// - Generated files (`generated: {size, seed}`, 3 × 100 MiB among them) are not written as
//   files: world.json gives each its size, SHA-256 and blob id, and their content is in the
//   repository's Git data (git cat-file blob ID) or made again by the one-line rule of
//   generated-bytes.ts, which README.md quotes.
// - Each Git repository is a bare repository folder (git/OWNER/REPO.git), not a bundle:
//   `git clone` reads it, writing it needs no `git` binary (the reference's loose objects are
//   copied, refs written with isomorphic-git), it is byte-identical export to export, and a
//   repository with no commits (which a bundle cannot hold) is one too.
// - Arrays keep the world's order (list order is what the service serves); object keys are
//   sorted. Two exports of one world are byte-identical.
// - --out must be a new or empty folder, or an earlier export (it holds MARKER), which is
//   replaced whole. The export is written beside it and renamed into place, so a failed
//   export leaves what was there.
// - tokens.json holds the world's token values too: they are fixtures of the reference, in
//   suites/world.yaml already, and an implementation may accept them as they are (a run
//   still needs them in its --tokens file).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import git from 'isomorphic-git';
import { HarnessError } from '../core/errors.js';
import { canonicalJson } from '../core/fingerprint.js';
import { suitePaths } from '../core/suite-paths.js';
import { describeToken } from '../suite/world-tokens.js';
import { loadWorld } from '../../reference-impl/service/world-loader.js';
import { expandVariables } from '../../reference-impl/service/world-expansion.js';
import { artifactZip, expandArtifacts } from '../../reference-impl/service/areas/artifacts/artifact-files.js';
import { type BuiltRepository, seriesFiles, worldRepository } from '../../reference-impl/service/git/world-git.js';
import type { ObjectStore, TreeEntry } from '../../reference-impl/service/git/object-store.js';
import type { World, WorldGitEntry, WorldRepository } from '../../reference-impl/service/world-model.js';
import { makeDirectory } from '../../lib/make-directory.js';

/** The file that marks a folder as an export (so a later export may replace it). */
export const MARKER = '.touchstone-world-export';
const FORMAT = 'touchstone-world-export/1';

/** What an export wrote, for the command's one-line summary. */
export interface ExportSummary {
  repositories: number;
  gitRepositories: number;
  artifacts: number;
  tokens: number;
}

/** Writes the world (default suites/world.yaml) into `out` (see the decisions above). */
export async function exportWorldTo(out: string, worldFile = suitePaths.world): Promise<ExportSummary> {
  if (out.trim() === '') throw new HarnessError('USAGE', '--out names no folder');
  const target = path.resolve(out);
  checkOut(out, target);
  const world = loadWorld(worldFile);
  const staging = path.join(path.dirname(target), `.${path.basename(target)}.export-${process.pid}`);
  try {
    fs.rmSync(staging, { recursive: true, force: true });
    // Missing parents are made (mkdir -p); the staging folder itself is not made recursively:
    // Node's recursive mkdir loops for ever under /proc.
    if (!fs.existsSync(path.dirname(staging))) makeDirectory(path.dirname(staging));
    fs.mkdirSync(staging);
    const summary = await writeExport(world, staging);
    fs.rmSync(target, { recursive: true, force: true });
    fs.renameSync(staging, target);
    return summary;
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code))
      throw new HarnessError('USAGE', `cannot write the export to ${out}: ${(error as Error).message}`);
    throw error;
  }
}

/** --out is a new or empty folder, or an earlier export: never a file or a folder of other things. */
function checkOut(out: string, target: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new HarnessError('USAGE', `cannot use --out ${out}: ${(error as Error).message}`);
  }
  if (stat.isSymbolicLink()) throw new HarnessError('USAGE', `--out ${out} is a symbolic link: name the folder itself`);
  if (!stat.isDirectory()) throw new HarnessError('USAGE', `--out ${out} is a file, not a folder`);
  const entries = fs.readdirSync(target);
  if (entries.length > 0 && !entries.includes(MARKER))
    throw new HarnessError(
      'USAGE',
      `--out ${out} is a folder that holds other things than an earlier world export: name a new or empty folder (an earlier export is replaced)`,
    );
}

async function writeExport(world: World, dir: string): Promise<ExportSummary> {
  const write = (file: string, data: string | Uint8Array) => {
    makeDirectory(path.dirname(path.join(dir, file)));
    fs.writeFileSync(path.join(dir, file), data);
  };
  const json = (file: string, value: unknown) => write(file, `${canonicalJson(value, 2)}\n`);
  let artifacts = 0;
  let gitRepositories = 0;
  const repositories = [];
  for (const repository of world.repositories) {
    const where = `${segment(repository.owner)}/${segment(repository.name)}`;
    const workflowRuns = (repository.workflow_runs ?? []).map((run) => ({
      ...run,
      artifacts: expandArtifacts(run).map((artifact) => {
        const zip = artifactZip(artifact);
        const file = `artifacts/${where}/${artifact.id}.zip`;
        write(file, zip);
        artifacts++;
        return { ...artifact, zip: { path: file, size: zip.length, sha256: sha256(zip) } };
      }),
    }));
    const built = await worldRepository(world, repository);
    let gitSection: unknown;
    if (built && repository.git) {
      gitRepositories++;
      const listing = await gitListing(repository, built);
      json(`git/${where}.json`, listing);
      await writeBareRepository(path.join(dir, `git/${where}.git`), built);
      gitSection = {
        ...repository.git,
        commits: await exportedCommits(repository, listing, built.store),
        listing: `git/${where}.json`,
        bare: `git/${where}.git`,
      };
    }
    repositories.push({
      ...repository,
      ...(repository.workflow_runs ? { workflow_runs: workflowRuns } : {}),
      ...(gitSection ? { git: gitSection } : {}),
    });
  }
  json('world.json', {
    format: FORMAT,
    clock: world.clock,
    users: world.users,
    organizations: world.organizations.map((organization) =>
      organization.variables ? { ...organization, variables: expandVariables(organization) } : organization,
    ),
    enterprises: world.enterprises,
    import_sources: world.importSources,
    apps: world.apps,
    repositories,
  });
  json(
    'tokens.json',
    world.tokens.map((token) => ({ ...token, description: describeToken(token) })),
  );
  write('README.md', readme(world));
  write(MARKER, `${FORMAT}\n`);
  return { repositories: world.repositories.length, gitRepositories, artifacts, tokens: world.tokens.length };
}

/** An owner or repository name as a path segment: the schema allows `.` and `..`, a folder must not be them. */
function segment(name: string): string {
  if (name === '.' || name === '..')
    throw new HarnessError('CONFIG', `the world names a repository or owner "${name}", which cannot be a folder`);
  return name;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

interface ListedCommit {
  id: string;
  oid: string;
  tree: string;
  parents: string[];
  author: { name: string; email: string; timestamp: number };
  committer: { name: string; email: string; timestamp: number };
  message: string;
  /** Every path of the commit's tree: mode, type and object id. */
  files: Record<string, { mode: string; type: string; oid: string }>;
}

interface GitListing {
  repository: string;
  default_branch: string;
  branches: Record<string, string>;
  tags: Record<string, string>;
  commits: ListedCommit[];
  trees: Record<string, TreeEntry[]>;
  blobs: Record<string, { size: number }>;
}

/** The repository's objects as the reference built them, read back from its object store. */
async function gitListing(repository: WorldRepository, built: BuiltRepository): Promise<GitListing> {
  const trees: Record<string, TreeEntry[]> = {};
  const blobs: Record<string, { size: number }> = {};
  const walk = async (store: ObjectStore, oid: string, prefix: string, files: ListedCommit['files']) => {
    const entries = trees[oid] ?? (trees[oid] = await store.readTree(oid));
    for (const entry of entries) {
      const at = `${prefix}${entry.path}`;
      if (entry.type === 'tree') await walk(store, entry.oid, `${at}/`, files);
      else files[at] = { mode: entry.mode, type: entry.type, oid: entry.oid };
      if (entry.type === 'blob' && !blobs[entry.oid]) blobs[entry.oid] = { size: await store.blobSize(entry.oid) };
    }
  };
  const commits: ListedCommit[] = [];
  for (const [id, oid] of built.commits) {
    const commit = await built.store.readCommit(oid);
    const files: ListedCommit['files'] = {};
    await walk(built.store, commit.tree, '', files);
    commits.push({ id, oid, ...commit, files });
  }
  return {
    repository: `${repository.owner}/${repository.name}`,
    default_branch: built.refs.defaultBranch,
    branches: built.refs.branches,
    tags: built.refs.tags,
    commits,
    trees,
    blobs,
  };
}

/**
 * The world's commits with their `changes` explicit: series expanded to one file each (the
 * padding of world-git.ts), generated files given their size, SHA-256 and blob id.
 */
async function exportedCommits(repository: WorldRepository, listing: GitListing, store: ObjectStore) {
  // A generated file's SHA-256 is taken of the bytes the reference holds for its blob, once per blob.
  const hashes = new Map<string, Promise<string>>();
  const hashOf = (oid: string) => hashes.get(oid) ?? hashes.set(oid, store.readBlob(oid).then(sha256)).get(oid)!;
  return Promise.all(
    (repository.git?.commits ?? []).map(async (commit) => {
      const files = listing.commits.find((listed) => listed.id === commit.id)?.files ?? {};
      const changes: Record<string, WorldGitEntry | null | object> = {};
      for (const [filePath, entry] of Object.entries(commit.changes)) {
        if (entry !== null && 'series' in entry)
          for (const [name, text] of seriesFiles(entry.series)) changes[`${filePath}/${name}`] = { text };
        else if (entry !== null && 'generated' in entry) {
          const { size, seed } = entry.generated;
          const oid = files[filePath]?.oid;
          changes[filePath] = { generated: { size, seed, sha256: oid === undefined ? undefined : await hashOf(oid), oid } };
        } else changes[filePath] = entry;
      }
      return { ...commit, oid: listing.commits.find((listed) => listed.id === commit.id)?.oid, changes };
    }),
  );
}

/** A bare repository `git clone` reads: the reference's objects, as loose objects, and the world's refs. */
async function writeBareRepository(gitdir: string, built: BuiltRepository): Promise<void> {
  await git.init({ fs, dir: gitdir, gitdir, bare: true, defaultBranch: built.refs.defaultBranch });
  await built.store.exportObjects([...built.objects].sort(), gitdir);
  for (const [name, oid] of Object.entries(built.refs.branches)) await git.writeRef({ fs, gitdir, ref: `refs/heads/${name}`, value: oid });
  for (const [name, oid] of Object.entries(built.refs.tags)) await git.writeRef({ fs, gitdir, ref: `refs/tags/${name}`, value: oid });
}

function readme(world: World): string {
  const git = world.repositories.filter((r) => r.git).map((r) => `${r.owner}/${r.name}`);
  return `# The touchstone fixture world, exported

Written by \`touchstone world export\` from suites/world.yaml (${FORMAT}). Load it into your
implementation before \`touchstone run --target\`: it is the state every target must serve.
Every JSON file has sorted keys; lists keep the world's order. Two exports of one world are
byte-identical.

- \`world.json\`: every section of world.yaml (clock, users, organizations, enterprises,
  import_sources, apps, repositories), expanded: user and app series are their users and apps,
  \`dev-*\` globs the logins they match, variable and artifact series their variables and
  artifacts (\`{n}\` zero-padded to 3 digits), file series in Git commits one file each
  (\`{n}\` zero-padded to the width of the count). Variable names are upper case.
  - An artifact's \`zip\` names its zip file here, with its size and SHA-256.
  - A repository's \`git\` keeps the world's commits (each with its \`oid\`) and names
    \`listing\` and \`bare\` below. A generated file reads
    \`{generated: {size, seed, sha256, oid}}\`; its content is not written out (100 MiB
    files exist): read the blob \`oid\` from the bare repository
    (\`git --git-dir=git/OWNER/REPO.git cat-file blob OID\`), or make it: the lines
    \`SEED:0\\n\`, \`SEED:1\\n\`, \`SEED:2\\n\`, … cut at \`size\` bytes.
- \`tokens.json\`: the roles cases act as: role, kind (classic, fine-grained, …), user or
  account, scopes or permissions, the reference's value, and \`description\`, the same in
  words. Map each role to a token of your implementation in the file
  \`touchstone run --tokens\` reads (\`touchstone tokens template\` writes one to fill in).
- \`git/OWNER/REPO.json\`: the Git data of each repository that has some (${git.join(', ')}):
  default branch, branches and tags (name → commit id), commits (world id, oid, tree, parents,
  author, committer, message and \`files\`, every path of its tree with mode, type and oid),
  \`trees\` (oid → entries) and \`blobs\` (oid → size). Ids are Git's own SHA-1s.
- \`git/OWNER/REPO.git/\`: that repository as a bare Git repository with those objects and
  refs: \`git clone git/OWNER/REPO.git\` reads it. A submodule is a gitlink whose commit is
  not in the repository, as in any superproject.
- \`artifacts/OWNER/REPO/ID.zip\`: each workflow-run artifact's zip, the bytes the reference
  serves for its download.
- \`${MARKER}\`: marks this folder as an export, so a later \`world export --out\` may
  replace it.
`;
}
