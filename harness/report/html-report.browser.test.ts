// What a person sees: the report opened in a real browser.
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Page } from '@playwright/test';
import { test as chromiumTest, expect, skipWithoutDebianChromium } from '../../test-support/debian-chromium.js';
import { renderHtmlReport } from './html-report.js';
import { createResultsFixture } from '../../test-support/results-fixture.js';
import type { Results } from '../core/results.js';

interface OpenedReport {
  page: Page;
  /** Script errors, console errors (a CSP violation is one) and dialogs seen so far. */
  problems: string[];
}

const test = chromiumTest.extend<{ openReport: (results: Results) => Promise<OpenedReport> }>({
  // Writes the report into the test's output directory (kept there when a test fails) and
  // opens it from disk, as someone opens report.html from a CI artifact.
  openReport: async ({ debianChromium }, use, testInfo) => {
    const context = await debianChromium.newContext({ viewport: { width: 1280, height: 900 } });
    await use(async (results) => {
      const file = testInfo.outputPath('report.html');
      writeFileSync(file, renderHtmlReport(results));
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console: ${message.text()}`);
      });
      page.on('dialog', (dialog) => {
        problems.push(`dialog: ${dialog.message()}`);
        void dialog.dismiss();
      });
      await page.goto(pathToFileURL(file).href);
      return { page, problems };
    });
    await context.close();
  },
});

skipWithoutDebianChromium(test);

const ASSIGNEES = 'GET /repos/{owner}/{repo}/assignees';

function visibleCaseRows(page: Page) {
  return page.locator('[data-testid="cases"] tbody tr:visible');
}

test('a person sees the verdict, the target and the counts', async ({ openReport }) => {
  const { page, problems } = await openReport(createResultsFixture());
  await expect(page.getByTestId('verdict')).toBeVisible();
  await expect(page.getByTestId('verdict')).toHaveText('Non-conforming');
  await expect(page.getByTestId('target')).toHaveText('https://impl.example');
  await expect(page.getByTestId('count-FAIL')).toContainText('1');
  await expect(page.getByTestId('count-PASS')).toContainText('3');
  // The script ran (its CSP hash matched): it reveals the filter bar it drives.
  await expect(page.getByTestId('filters')).toBeVisible();
  expect(problems).toEqual([]);
});

test('the matrix shows the worst outcome and case count per endpoint and aspect, and filters the cases', async ({ openReport }) => {
  const { page, problems } = await openReport(createResultsFixture());
  const matrix = page.getByTestId('matrix');
  await expect(matrix).toBeVisible();
  const cell = (key: string) => matrix.locator(`[data-cell="${key}"]`);
  await expect(cell(`${ASSIGNEES}|pagination`)).toHaveText('FAIL ×2');
  await expect(cell(`${ASSIGNEES}|status`)).toHaveText('WARN ×2');
  await expect(cell(`${ASSIGNEES}|schema`)).toHaveText('PASS ×1');
  await expect(cell('GET /repos/{owner}/{repo}/git/blobs/{file_sha}|schema')).toHaveText('ERROR ×1');
  await expect(cell('PUT /orgs/{org}/interaction-limits|status')).toHaveText('XFAIL ×1');
  await expect(cell(`${ASSIGNEES}|limits`)).toHaveText('');
  // Colour is how a person scans the matrix: FAIL and PASS cells must not look alike.
  const background = (key: string) => cell(key).evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(await background(`${ASSIGNEES}|pagination`)).not.toBe(await background(`${ASSIGNEES}|schema`));

  await expect(visibleCaseRows(page)).toHaveCount(8);
  await cell(`${ASSIGNEES}|pagination`).getByRole('link').click();
  await expect(visibleCaseRows(page)).toHaveCount(2);
  await expect(visibleCaseRows(page).nth(0)).toHaveAttribute('data-case', 'assignees/single-page-omits-link');
  await expect(visibleCaseRows(page).nth(1)).toHaveAttribute('data-case', 'assignees/per-page-max');
  await expect(page.getByTestId('cell-filter')).toContainText(`${ASSIGNEES} · pagination`);
  await page.getByTestId('filters').locator('[data-filter-outcome="FAIL"]').click();
  await expect(visibleCaseRows(page)).toHaveCount(1);
  await page.getByTestId('cell-filter').getByRole('button').click();
  await expect(visibleCaseRows(page)).toHaveCount(1);
  await page.getByTestId('count-total').click();
  await expect(visibleCaseRows(page)).toHaveCount(8);
  expect(problems).toEqual([]);
});

function visibleRequirementRows(page: Page) {
  return page.locator('[data-testid="requirements"] tbody tr:visible');
}

test('the search narrows the cases and the requirements as one types: by id, title, message or spec text; with the filters', async ({
  openReport,
}) => {
  const { page, problems } = await openReport(createResultsFixture());
  const search = page.getByRole('searchbox', { name: 'Search cases and requirements' });
  await expect(search).toBeVisible();
  const ids = async (rows: ReturnType<typeof visibleCaseRows>, attribute: string) =>
    rows.evaluateAll((els, a) => els.map((el) => el.getAttribute(a)), attribute);

  // A case id: its row, and the requirement whose cases name it.
  await search.pressSequentially('vnd-media');
  expect(await ids(visibleCaseRows(page), 'data-case')).toEqual(['conventions/vnd-media-type']);
  expect(await ids(visibleRequirementRows(page), 'data-requirement')).toEqual(['conventions.media-type-recommended']);
  await expect(page.getByTestId('search-count')).toHaveText('1 of 8 cases, 1 of 9 requirements');

  // Spec text, every word somewhere in the row, whatever the case: no case says it.
  await search.fill('ONE_DAY three_days');
  expect(await ids(visibleRequirementRows(page), 'data-requirement')).toEqual(['interaction-limits.expiry-default-one-day']);
  await expect(visibleCaseRows(page)).toHaveCount(0);
  await expect(page.getByTestId('no-match')).toBeVisible();

  // A title, and a message, with the outcome filter on top.
  await search.fill('per_page=101');
  expect(await ids(visibleCaseRows(page), 'data-case')).toEqual(['assignees/per-page-max']);
  await search.fill('link header');
  expect(await ids(visibleCaseRows(page), 'data-case')).toEqual(['assignees/single-page-omits-link']);
  await page.getByTestId('filters').locator('[data-filter-outcome="PASS"]').click();
  await expect(visibleCaseRows(page)).toHaveCount(0);
  await search.fill('');
  await expect(visibleCaseRows(page)).toHaveCount(3);
  await expect(visibleRequirementRows(page)).toHaveCount(9);
  await expect(page.getByTestId('search-count')).toHaveText('');
  expect(problems).toEqual([]);
});

test('the requirements filter by status and by level, together and with the search', async ({ openReport }) => {
  const { page, problems } = await openReport(createResultsFixture());
  const filters = page.getByTestId('requirement-filters');
  await expect(filters).toBeVisible();
  await expect(visibleRequirementRows(page)).toHaveCount(9);
  await filters.locator('[data-filter-status="UNTESTED"]').click();
  await expect(filters.locator('[data-filter-status="UNTESTED"]')).toHaveAttribute('aria-pressed', 'true');
  expect(await visibleRequirementRows(page).evaluateAll((els) => els.map((el) => el.getAttribute('data-status')))).toEqual([
    'UNTESTED',
    'UNTESTED',
  ]);
  await filters.locator('[data-filter-level="SHOULD"]').click();
  await expect(visibleRequirementRows(page)).toHaveCount(0);
  await expect(page.getByTestId('no-requirement-match')).toBeVisible();
  await filters.locator('[data-filter-status=""]').click();
  await expect(visibleRequirementRows(page)).toHaveCount(1);
  await expect(visibleRequirementRows(page)).toHaveAttribute('data-requirement', 'conventions.media-type-recommended');
  await expect(page.getByTestId('no-requirement-match')).toBeHidden();
  // Only the statuses and levels present get a button, each with its count.
  await expect(filters.locator('[data-filter-status="FAIL"]')).toHaveText('FAIL 1');
  await expect(filters.locator('[data-filter-level="MAY"]')).toHaveCount(0);
  // The case table's filters are its own.
  await expect(visibleCaseRows(page)).toHaveCount(8);
  expect(problems).toEqual([]);
});

test('a person can open a failure and see requirement, spec text, expected vs actual, the exchange and the curl', async ({
  openReport,
}) => {
  const { page, problems } = await openReport(createResultsFixture());
  await expect(page.getByTestId('failure')).toHaveCount(3);
  const failure = page.locator('[data-testid="failure"][data-case="assignees/single-page-omits-link"]');
  await expect(failure.getByTestId('spec-quote')).toBeHidden();

  // From the case table, as a reader would get there.
  await page
    .locator('[data-testid="cases"]')
    .getByRole('link', { name: 'GET assignees with every result on one page omits the link header' })
    .click();
  await expect(failure).toHaveAttribute('open', '');
  await expect(failure.getByTestId('requirement')).toContainText('pagination.link-omitted-single-page');
  await expect(failure.getByTestId('requirement')).toContainText('MUST');
  await expect(failure.getByTestId('spec-quote')).toBeVisible();
  await expect(failure.getByTestId('spec-quote')).toHaveText(
    'When the endpoint is not paginated, or all results fit on one page, the `link` header is omitted.',
  );
  await expect(failure.getByTestId('expected')).toContainText('no link header (2 assignees fit on one page of 100)');
  await expect(failure.getByTestId('actual')).toContainText(
    'link: <https://impl.example/repos/octo-org/hello-world/assignees?per_page=100&page=1>; rel="first"',
  );
  await expect(failure.getByTestId('request')).toContainText('GET https://impl.example/repos/octo-org/hello-world/assignees?per_page=100');
  await expect(failure.getByTestId('request')).toContainText('authorization: Bearer $TOKEN');
  await expect(failure.getByTestId('response')).toContainText('200 OK');
  await expect(failure.getByTestId('response-body')).toContainText('"login": "octocat",');
  const curl = failure.getByTestId('reproduce');
  await expect(curl).toBeVisible();
  await expect(curl).toHaveText(
    `curl -sS -i -H 'accept: application/vnd.service+json' -H "authorization: Bearer $TOKEN" 'https://impl.example/repos/octo-org/hello-world/assignees?per_page=100'`,
  );
  const copy = failure.getByTestId('copy-reproduce');
  await expect(copy).toBeVisible();
  await copy.click();
  // With clipboard access it copies; without, it selects the command for Ctrl+C. Either helps.
  await expect(copy).toHaveText(/Copied|Press Ctrl\+C/);

  // Opening by summary click works too.
  const error = page.locator('[data-testid="failure"][data-outcome="ERROR"]');
  await error.locator('summary').click();
  await expect(error.getByTestId('response')).toContainText('No response');
  expect(problems).toEqual([]);
});

test('script a hostile target put in a response body, a header or a message does not run and shows as text', async ({ openReport }) => {
  const results = createResultsFixture();
  const failing = results.cases[1]!;
  failing.failure!.exchange!.response!.headers.push(['x-evil', '<script>window.__pwned = "header"; alert(1)</script>']);
  failing.failure!.exchange!.response!.body = '<script>window.__pwned = "body"; alert(2)</script><img src=x onerror="window.__pwned = 1">';
  failing.message = '</summary></details><script>window.__pwned = "message"</script>';
  const { page, problems } = await openReport(results);
  const failure = page.locator('[data-testid="failure"][data-case="assignees/single-page-omits-link"]');
  await failure.locator('summary').click();
  await expect(failure.getByTestId('response')).toContainText('x-evil: <script>window.__pwned = "header"; alert(1)</script>');
  await expect(failure.getByTestId('response-body')).toHaveText(
    '<script>window.__pwned = "body"; alert(2)</script><img src=x onerror="window.__pwned = 1">',
  );
  expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
  expect(await page.locator('script').count()).toBe(1);
  expect(await page.locator('img').count()).toBe(0);
  expect(problems).toEqual([]);
});
