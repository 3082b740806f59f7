// The README of a directory, and the HTML rendering of it or of any file (the html media type).
//
// Decisions where the spec is silent (README "README"):
// - A directory's README is its first entry, in tree order, named README or README.<ext>
//   (case-insensitive), Markdown ones (.md, .markdown) preferred.
// - HTML: Markdown is rendered with markdown-it (raw HTML in the file is escaped, unsafe link
//   schemes refused), other READMEs are escaped text in <pre>; either way wrapped in
//   <div id="readme"><article class="markdown-body">…</article></div>, as real hosts wrap it.
//   Headings are plain (`<h2>Guide</h2>`); the variation contents.html-heading-anchors gives
//   each an anchor to link to, as real hosts render them (`<h2><a id="user-content-guide"
//   class="anchor" href="#guide"></a>Guide</h2>`): the spec says only "HTML rendering".
import MarkdownIt from 'markdown-it';
import type { TreeEntry } from '../../git/object-store.js';

type Markdown = InstanceType<typeof MarkdownIt>;

const markdown = new MarkdownIt({ html: false, linkify: true });
const anchoredMarkdown = withHeadingAnchors(new MarkdownIt({ html: false, linkify: true }));
const README = /^readme(\.[^/]+)?$/i;
const MARKDOWN = /\.(md|markdown)$/i;

/** `caseSensitive` (a fault) finds only a file named exactly `readme…`, missing README.md. */
export function readmeEntry(entries: readonly TreeEntry[], caseSensitive = false): TreeEntry | undefined {
  const name = caseSensitive ? /^readme(\.[^/]+)?$/ : README;
  const candidates = entries.filter((e) => e.type === 'blob' && e.mode !== '120000' && name.test(e.path));
  return candidates.find((e) => MARKDOWN.test(e.path)) ?? candidates[0];
}

/** Each heading opened with an anchor named after its text. */
function withHeadingAnchors(md: Markdown): Markdown {
  md.renderer.rules.heading_open = (tokens, index, options, _env, self) => {
    const slug = slugOf(tokens[index + 1]?.content ?? '');
    return `${self.renderToken(tokens, index, options)}<a id="user-content-${slug}" class="anchor" aria-hidden="true" href="#${slug}"></a>`;
  };
  return md;
}

/** A heading's fragment name as real hosts make it: lower case, letters, digits, `_` and `-`, spaces as hyphens. */
function slugOf(text: string): string {
  const name = text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
  return encodeURIComponent(name);
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** `anchors`: the variation contents.html-heading-anchors. */
export function renderReadme(name: string, text: string, anchors = false): string {
  const body = MARKDOWN.test(name) ? (anchors ? anchoredMarkdown : markdown).render(text) : `<pre>${escapeHtml(text)}</pre>\n`;
  return `<div id="readme"><article class="markdown-body">\n${body}</article></div>\n`;
}
