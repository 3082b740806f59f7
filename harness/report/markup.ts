// Escaped-by-default markup for the HTML report and the JUnit file. Every interpolated value
// is escaped unless it is already Markup, so a renderer cannot forget to escape a title, a
// header or a body a hostile target chose: the only way to emit raw text is to build Markup
// from a template literal written in this repository.
import { replaceControlCharacters } from './control-characters.js';

export class Markup {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export type MarkupValue = Markup | string | number | boolean | null | undefined | readonly MarkupValue[];

const HTML_ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML element content and double- or single-quoted attribute values. */
export function escapeHtml(text: string): string {
  return replaceControlCharacters(text).replace(/[&<>"']/g, (c) => HTML_ENTITIES[c]!);
}

// XML parsers normalise a literal tab, newline or carriage return inside an attribute value to
// a space, and a carriage return in text to a newline; character references survive both.
const XML_ENTITIES: Readonly<Record<string, string>> = {
  ...HTML_ENTITIES,
  "'": '&apos;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

/** Escapes text for XML 1.0 element content and attribute values alike. */
export function escapeXml(text: string): string {
  return replaceControlCharacters(text).replace(/[&<>"'\t\n\r]/g, (c) => XML_ENTITIES[c]!);
}

/** Escapes multi-line XML element content, keeping newlines readable in the file. */
export function escapeXmlText(text: string): Markup {
  return new Markup(replaceControlCharacters(text).replace(/[&<>\r]/g, (c) => XML_ENTITIES[c]!));
}

function createTag(escapeText: (text: string) => string) {
  const render = (value: MarkupValue): string => {
    if (value instanceof Markup) return value.text;
    if (Array.isArray(value)) return value.map(render).join('');
    if (value === null || value === undefined || value === false) return '';
    return escapeText(String(value));
  };
  return (strings: TemplateStringsArray, ...values: MarkupValue[]): Markup => {
    let out = strings[0]!;
    values.forEach((value, i) => {
      out += render(value) + strings[i + 1]!;
    });
    return new Markup(out);
  };
}

/** Template tag for HTML: `html\`<td>${title}</td>\`` escapes title. `false`, null and undefined render nothing. */
export const html = createTag(escapeHtml);

/** Template tag for XML, escaping like escapeXml. */
export const xml = createTag(escapeXml);

/**
 * Text whose `backtick spans` (as describeTarget names a plugin's command, for the console and
 * Markdown) become <code> elements; everything else is escaped.
 */
export function withCodeSpans(text: string): Markup {
  return new Markup(
    text
      .split(/`([^`]*)`/)
      .map((part, i) => (i % 2 ? `<code>${escapeHtml(part)}</code>` : escapeHtml(part)))
      .join(''),
  );
}
