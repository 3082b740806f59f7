// The README of a directory, and the HTML rendering of it or of any file (the html media type).
//
// Decisions where the spec is silent (README "README"):
// - A directory's README is its first entry, in tree order, named README or README.<ext>
//   (case-insensitive), Markdown ones (.md, .markdown) preferred.
// - HTML: Markdown is rendered with markdown-it (raw HTML in the file is escaped, unsafe link
//   schemes refused), other READMEs are escaped text in <pre>; either way wrapped in
//   <div id="readme"><article class="markdown-body">…</article></div>, as real hosts wrap it.
import MarkdownIt from 'markdown-it';
import type { TreeEntry } from '../../git/object-store.js';

const markdown = new MarkdownIt({ html: false, linkify: true });
const README = /^readme(\.[^/]+)?$/i;
const MARKDOWN = /\.(md|markdown)$/i;

/** `caseSensitive` (a fault) finds only a file named exactly `readme…`, missing README.md. */
export function readmeEntry(entries: readonly TreeEntry[], caseSensitive = false): TreeEntry | undefined {
  const name = caseSensitive ? /^readme(\.[^/]+)?$/ : README;
  const candidates = entries.filter((e) => e.type === 'blob' && e.mode !== '120000' && name.test(e.path));
  return candidates.find((e) => MARKDOWN.test(e.path)) ?? candidates[0];
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function renderReadme(name: string, text: string): string {
  const body = MARKDOWN.test(name) ? markdown.render(text) : `<pre>${escapeHtml(text)}</pre>\n`;
  return `<div id="readme"><article class="markdown-body">\n${body}</article></div>\n`;
}
