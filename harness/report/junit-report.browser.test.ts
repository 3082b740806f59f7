// junit-report.test.ts checks the text; this checks that a real XML parser (Chromium's)
// accepts the file and reads back what we meant, even when a target sent bytes XML forbids.
import { expect, skipWithoutDebianChromium, test } from '../../test-support/debian-chromium.js';
import { renderJunit } from './junit-report.js';
import { createResultsFixture } from '../../test-support/results-fixture.js';

skipWithoutDebianChromium(test);

test('the JUnit file is well-formed XML and round-trips names, messages and bodies', async ({ debianChromium }) => {
  const results = createResultsFixture();
  const c = results.cases[1]!;
  c.title = 'a "quoted" <title> & \'more\'\twith tab';
  c.message = 'first line \u0000\u001b[31mred\u001b[0m ]]>\nsecond line';
  c.failure!.actual = 'body \u0007</failure><![CDATA[ x ]]>';
  const page = await debianChromium.newPage();
  const parsed = await page.evaluate((xml) => {
    const doc = new DOMParser().parseFromString(xml, 'application/xml');
    const failure = doc.querySelector('testsuite:not([name="touchstone"]) failure');
    return {
      error: doc.querySelector('parsererror')?.textContent ?? null,
      testcases: doc.querySelectorAll('testsuite > testcase').length,
      name: failure?.parentElement?.getAttribute('name'),
      message: failure?.getAttribute('message'),
      body: failure?.textContent,
      warnOutcome: doc.querySelector('testsuite[name="conventions"] property[name="outcome"]')?.getAttribute('value'),
    };
  }, renderJunit(results));
  await page.close();
  expect(parsed.error).toBeNull();
  expect(parsed.testcases).toBe(9);
  expect(parsed.name).toBe('a "quoted" <title> & \'more\'\twith tab');
  expect(parsed.message).toBe('first line \ufffdred ]]>');
  expect(parsed.body).toContain('first line \ufffdred ]]>\nsecond line');
  expect(parsed.body).toContain('actual: body \ufffd</failure><![CDATA[ x ]]>');
  expect(parsed.warnOutcome).toBe('WARN');
});
