// Every relative link of the README, of docs/ and of bench/README.md resolves, as GitHub renders them: the file or
// folder exists inside the repository (a clone has nothing beside it), and an #anchor names a
// heading of the Markdown file it points into, by GitHub's heading-slug rules. External links
// (with a scheme) are not fetched: a test must not depend on the network.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import MarkdownIt, { type Token } from 'markdown-it';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const markdown = new MarkdownIt({ html: true });

/** The README, bench/README.md (where the docs send readers for figures) and every Markdown file under docs/, relative to root. */
function documentation(root: string): string[] {
  const under = (dir: string): string[] =>
    readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
      const relative = path.join(dir, entry.name);
      if (entry.isDirectory()) return under(relative);
      return entry.name.endsWith('.md') ? [relative] : [];
    });
  return ['README.md', 'bench/README.md', ...under('docs')].filter((file) => existsSync(path.join(root, file)));
}

/** A heading's text as GitHub slugs it: what it shows, code spans included, markup left out. */
function headingText(inline: Token): string {
  return (inline.children ?? []).map((child) => (child.type === 'text' || child.type === 'code_inline' ? child.content : '')).join('');
}

/**
 * The anchors GitHub gives a Markdown file's headings (github-slugger): lowercased, every
 * character but letters, marks, digits, connector punctuation (`_`), hyphens and spaces
 * dropped, spaces made hyphens; a repeated slug gets -1, -2, … in order.
 */
function anchorsOf(file: string): Set<string> {
  const tokens = markdown.parse(readFileSync(file, 'utf8'), {});
  const anchors = new Set<string>();
  tokens.forEach((token, i) => {
    if (token.type !== 'heading_open') return;
    const base = headingText(tokens[i + 1])
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
      .replace(/ /g, '-');
    let slug = base;
    for (let n = 1; anchors.has(slug); n++) slug = `${base}-${n}`;
    anchors.add(slug);
  });
  return anchors;
}

/** Every link and image of a Markdown file, with the line it is on (1-based). */
function linksOf(file: string): { target: string; line: number }[] {
  let blockLine = 0;
  return markdown.parse(readFileSync(file, 'utf8'), {}).flatMap((block) => {
    // A table cell has no line of its own: it is on its row's. A paragraph's children carry
    // none either: count its line breaks.
    blockLine = block.map?.[0] ?? blockLine;
    let line = blockLine + 1;
    return (block.children ?? []).flatMap((child) => {
      if (child.type === 'softbreak' || child.type === 'hardbreak') line++;
      const target = child.type === 'link_open' ? child.attrGet('href') : child.type === 'image' ? child.attrGet('src') : null;
      return typeof target === 'string' ? [{ target, line }] : [];
    });
  });
}

/** `file:line: target: what is wrong`, for every relative link of `files` (relative to root) that does not resolve. */
function brokenLinks(root: string, files: string[]): string[] {
  const anchorCache = new Map<string, Set<string>>();
  const anchors = (file: string) => anchorCache.get(file) ?? anchorCache.set(file, anchorsOf(file)).get(file) ?? new Set<string>();
  return files.flatMap((file) =>
    linksOf(path.join(root, file)).flatMap(({ target, line }) => {
      // A scheme (https:, mailto:) or a protocol-relative URL: not a file of the repository.
      if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(target)) return [];
      const problem = (reason: string) => [`${file}:${line}: ${target}: ${reason}`];
      const hash = target.indexOf('#');
      const linkPath = decodeURI(hash === -1 ? target : target.slice(0, hash));
      const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
      // GitHub resolves a path starting with / against the repository's root.
      const from = linkPath.startsWith('/') ? root : path.join(root, path.dirname(file));
      const resolved = linkPath === '' ? path.join(root, file) : path.join(from, linkPath);
      const inside = path.relative(root, resolved);
      if (inside.startsWith('..') || path.isAbsolute(inside)) return problem('leaves the repository');
      if (!existsSync(resolved)) return problem('no such file');
      if (anchor === undefined || !resolved.endsWith('.md') || statSync(resolved).isDirectory()) return [];
      return anchors(resolved).has(anchor) ? [] : problem(`no heading with the anchor #${anchor} in ${inside}`);
    }),
  );
}

test('every relative link of the README, docs/ and bench/README.md resolves, anchors included', () => {
  const files = documentation(ROOT);
  expect(files).toEqual(expect.arrayContaining(['README.md', path.join('docs', 'commands.md')]));
  // The check has something to check: the README links into docs/ with anchors.
  expect(linksOf(path.join(ROOT, 'README.md')).filter(({ target }) => target.includes('.md#')).length).toBeGreaterThan(5);
  expect(brokenLinks(ROOT, files)).toEqual([]);
});

test('a missing file or image, a missing anchor and a link out of the repository are each reported', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'touchstone-doc-links-'));
  mkdirSync(path.join(root, 'docs'));
  writeFileSync(
    path.join(root, 'README.md'),
    [
      '# Title',
      '',
      '[ok](docs/guide.md#the-run-command-and-its-options) [ok too](#title) [repeated](docs/guide.md#usage-1)',
      '[gone](docs/missing.md) [no anchor](docs/guide.md#nowhere)',
      '[outside](../elsewhere/notes.md) [from the root](/docs/guide.md#usage) [root, gone](/guide.md) [external](https://example.com/x.md#y)',
      '![picture](docs/missing.png)',
      '',
    ].join('\n'),
  );
  writeFileSync(
    path.join(root, 'docs', 'guide.md'),
    '# Guide\n\n## The `run` command, and its options\n\n## Usage\n\n## Usage\n\n[back](../README.md#title-2)\n',
  );
  expect(brokenLinks(root, documentation(root))).toEqual([
    'README.md:4: docs/missing.md: no such file',
    'README.md:4: docs/guide.md#nowhere: no heading with the anchor #nowhere in docs/guide.md',
    'README.md:5: ../elsewhere/notes.md: leaves the repository',
    'README.md:5: /guide.md: no such file',
    'README.md:6: docs/missing.png: no such file',
    'docs/guide.md:9: ../README.md#title-2: no heading with the anchor #title-2 in README.md',
  ]);
});
