// Which file is a directory's README, and how it renders: nothing in it runs in a reader's browser.
import { expect, test } from '@playwright/test';
import type { TreeEntry } from '../../git/object-store.js';
import { readmeEntry, renderReadme } from './readme.js';

const blob = (path: string, mode: TreeEntry['mode'] = '100644'): TreeEntry => ({ path, mode, oid: '0'.repeat(40), type: 'blob' });

test('README in any case and with any extension; Markdown preferred; a symlink or a directory is not one', () => {
  expect(readmeEntry([blob('readme.txt'), blob('ReadMe.md')])?.path).toBe('ReadMe.md');
  expect(readmeEntry([blob('README')])?.path).toBe('README');
  expect(readmeEntry([blob('README.md', '120000'), { ...blob('readme.markdown'), type: 'tree', mode: '040000' }])).toBeUndefined();
  expect(readmeEntry([blob('READMEFIRST.md')])).toBeUndefined();
});

test('Markdown renders with its HTML escaped and unsafe links refused; other READMEs are escaped text', () => {
  const html = renderReadme('README.md', '# Hi <script>alert(1)</script>\n\n[x](javascript:alert(1)) [ok](guide.md)\n');
  expect(html).toContain('<h1>Hi &lt;script&gt;alert(1)&lt;/script&gt;</h1>');
  expect(html).not.toContain('href="javascript:');
  expect(html).toContain('<a href="guide.md">ok</a>');
  expect(renderReadme('README.txt', 'a < b & "c"')).toBe(
    '<div id="readme"><article class="markdown-body">\n<pre>a &#60; b &#38; &#34;c&#34;</pre>\n</article></div>\n',
  );
});
