// The comparison page as a person sees it: opened from disk in Chromium, regressions first.
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { test, expect, skipWithoutDebianChromium } from '../../test-support/debian-chromium.js';
import { createResultsFixture } from '../../test-support/results-fixture.js';
import { compareRuns } from './compare-runs.js';
import { renderCompareHtml } from './compare-html.js';

skipWithoutDebianChromium(test);

test('the headline says what regressed, the newly failing table comes before the rest, and the page runs nothing', async ({
  debianChromium,
}, testInfo) => {
  const after = createResultsFixture();
  const changed = after.cases.find((c) => c.id === 'auth/anonymous-put-limits-401')!;
  Object.assign(changed, { outcome: 'FAIL', message: 'MUST errors.401-authentication-required: expected status 401, got status 200' });
  const file = testInfo.outputPath('compare.html');
  writeFileSync(
    file,
    renderCompareHtml(
      compareRuns([
        { label: 'before', results: createResultsFixture() },
        { label: 'after', results: after },
      ]),
    ),
  );
  const page = await (await debianChromium.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  const problems: string[] = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  await page.goto(pathToFileURL(file).href);

  await expect(page.getByTestId('headline')).toHaveText('1 newly failing case against before');
  const firstRow = page.getByTestId('regressed').locator('tbody tr').first();
  await expect(firstRow).toBeInViewport();
  await expect(firstRow).toContainText('auth/anonymous-put-limits-401');
  await expect(firstRow).toContainText('expected status 401, got status 200');
  await expect(firstRow.locator('.change')).toHaveText('▼ regressed');
  // The full tables follow, changes first.
  await expect(page.getByTestId('cases').locator('tbody tr').first()).toHaveAttribute('data-change', 'regressed');
  expect(problems).toEqual([]);
});
