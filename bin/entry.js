// How bin/ starts a command: from its compiled form in dist/ (bin/build.ts) when that build is
// current (isCurrent: no file it was built from has changed since); from the TypeScript sources
// through tsx otherwise, so an edited source is never shadowed by an older build, and a clone
// with no build still runs.
// TOUCHSTONE_FROM_SOURCE=1 always takes the sources.
import { existsSync, readFileSync, renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const require = createRequire(import.meta.url);

/**
 * The parts bin/build.ts writes, each started (and checked) on its own. `engine` is the run
 * engine's Playwright entry files (config, spec, reporter), which no bin/ script starts: the
 * run hands them to Playwright (harness/run/conformance-process.ts asks builtAndCurrent).
 */
export const BUILD_PARTS = ['touchstone', 'commands', 'protoc-gen-touchstone', 'engine'];

/** The parts of the build in root/dist that are missing or stale. */
export function staleParts(root) {
  return BUILD_PARTS.filter((part) => !isCurrent(root, part));
}

/**
 * Whether part `part` of the build in root/dist (one of BUILD_PARTS) is
 * current: built, and every file it was built from (dist/manifest.json lists them) either older
 * than the build or, when newer, holding the very bytes it was built from (the manifest keeps
 * their digests). Newer files with the same bytes are what an install from a package looks like
 * (npm gives every extracted file the time of extraction) or a checkout that rewrote files; an
 * edited one differs and the sources run. When every newer input of every part proves
 * unchanged, the manifest takes the time of the check, so later starts compare times only (in a
 * read-only install each start hashes those files again).
 */
export function isCurrent(root, part) {
  try {
    const manifestFile = path.join(root, 'dist', 'manifest.json');
    const builtAt = statSync(manifestFile).mtimeMs;
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
    const inputs = manifest[part];
    if (!Array.isArray(inputs)) return false;
    // A source gone since the build throws: stale as well.
    const newer = (files) => files.filter((input) => statSync(path.join(root, input)).mtimeMs > builtAt);
    // The common case: only this part's inputs are looked at.
    if (newer(inputs).length === 0) return true;
    // Every newer input of every part is hashed, once each.
    const everyInput = [...new Set(Object.values(manifest).filter(Array.isArray).flat())];
    const changed = new Set(newer(everyInput).filter((input) => manifest.digests?.[input] !== fileDigest(path.join(root, input))));
    if (changed.size === 0) {
      try {
        const now = new Date();
        utimesSync(manifestFile, now, now);
      } catch {}
    }
    return inputs.every((input) => !changed.has(input));
  } catch {
    return false;
  }
}

/** The digest the manifest keeps of a file the build read (node:crypto loaded only when needed). */
export function fileDigest(file) {
  return require('node:crypto').createHash('sha256').update(readFileSync(file)).digest('hex');
}

/**
 * Runs a compiled CommonJS entry with V8's code cache: the code compiled in one run is saved
 * beside the file (<file>.v8-cache, at exit, when missing or refused: another node, a changed
 * file) and reused by the next, so big dependencies are not compiled again at every start.
 * A cache that cannot be written (a read-only install) is simply not kept.
 */
export function runWithCodeCache(file) {
  const cacheFile = `${file}.v8-cache`;
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {}
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${readFileSync(file, 'utf8')}\n})`;
  const script = new vm.Script(wrapped, { filename: file, cachedData });
  if (cachedData === undefined || script.cachedDataRejected) {
    process.once('exit', () => {
      try {
        const scratch = `${cacheFile}.${process.pid}`;
        writeFileSync(scratch, script.createCachedData());
        renameSync(scratch, cacheFile);
      } catch {}
    });
  }
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, path.dirname(file));
  return module.exports;
}

const fromSource = process.env.TOUCHSTONE_FROM_SOURCE === '1';

/** Whether part `part` is to run compiled: current (isCurrent), and TOUCHSTONE_FROM_SOURCE=1 not set. */
export function builtAndCurrent(root, part) {
  return !fromSource && isCurrent(root, part);
}
let tsxRegistered;
async function underTsx(load) {
  tsxRegistered ??= import('tsx/esm/api').then(({ register }) => register());
  await tsxRegistered;
  return load();
}

/**
 * Command `name`'s entry module, compiled (dist/<name>.cjs) when current, else `sources.entry()`
 * under tsx; and `part(file)`, which loads one of its parts (dist/commands/<file>.cjs or .js
 * when those are current, else `sources.part(file)`), checked when the first part is asked for.
 */
export async function start(name, sources) {
  const entry = builtAndCurrent(ROOT, name) ? runWithCodeCache(path.join(ROOT, 'dist', `${name}.cjs`)) : await underTsx(sources.entry);
  let partsCurrent;
  const part = (file) => {
    partsCurrent ??= builtAndCurrent(ROOT, 'commands');
    if (!partsCurrent) return underTsx(() => sources.part(file));
    const compiled = path.join(ROOT, 'dist', 'commands', file);
    return existsSync(`${compiled}.cjs`) ? runWithCodeCache(`${compiled}.cjs`) : import(pathToFileURL(`${compiled}.js`).href);
  };
  return { entry, part };
}
