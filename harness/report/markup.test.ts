import { expect, test } from '@playwright/test';
import { replaceControlCharacters } from './control-characters.js';
import { escapeHtml, escapeXml, escapeXmlText, html, Markup, xml } from './markup.js';

test('html escapes every interpolated string but not nested markup', () => {
  const hostile = `<script>alert("x")</script>&'`;
  const out = html`<p title="${hostile}">${hostile}${html`<b>${'ok'}</b>`}</p>`;
  expect(out.text).toBe(
    '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;<b>ok</b></p>',
  );
});

test('html renders arrays joined and skips null, undefined and false', () => {
  expect(html`${['<a>', html`<i></i>`]}${null}${undefined}${false}${0}`.text).toBe('&lt;a&gt;<i></i>0');
  expect(String(new Markup('<raw>'))).toBe('<raw>');
});

test('xml keeps whitespace in attributes as character references', () => {
  expect(escapeXml('a\tb\nc\rd "e" \'f\'')).toBe('a&#9;b&#10;c&#13;d &quot;e&quot; &apos;f&apos;');
  expect(xml`<x a="${'1\n2'}"/>`.text).toBe('<x a="1&#10;2"/>');
  expect(escapeXmlText('line 1\nline 2 <&>\r').text).toBe('line 1\nline 2 &lt;&amp;&gt;&#13;');
});

test('characters XML 1.0 forbids are replaced, colour codes dropped, valid text kept', () => {
  const nasty = 'nul\u0000 bell\u0007 esc\u001b[31mred\u001b[0m ff\u000c lone\ud800 back\udc00 nonchar\uffff';
  const cleaned = replaceControlCharacters(nasty);
  expect(cleaned).toBe('nul\ufffd bell\ufffd escred ff\ufffd lone\ufffd back\ufffd nonchar\ufffd');
  expect(replaceControlCharacters('tab\tnl\ncr\r emoji 😀 é')).toBe('tab\tnl\ncr\r emoji 😀 é');
  for (const escaped of [escapeXml(nasty), escapeHtml(nasty), escapeXmlText(nasty).text]) {
    expect(escaped).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/);
  }
});
