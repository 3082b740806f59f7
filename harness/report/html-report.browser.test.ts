// What a person sees: the report opened from disk in a real browser, as someone would open
// report.html from a CI artifact.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import type { Browser, BrowserContext } from 'playwright';
import { launchDebianChromium, skipWithoutDebianChromium } from './debian-chromium.js';
import { renderHtmlReport } from './html-report.js';
import { createResultsFixture } from './results-fixture.js';
import type { Results } from './results.js';

skipWithoutDebianChromium(test);

const ASSIGNEES = 'GET /repos/{owner}/{repo}/assignees';

let browser: Browser;
let context: BrowserContext;
let dir: string;

test.beforeAll(async () => {
  browser = await launchDebianChromium();
  dir = mkdtempSync(join(tmpdir(), 'touchstone-report-'));
});

test.afterAll(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test.beforeEach(async () => {
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
});

test.afterEach(async () => {
  await context.close();
});

/** Writes the report to a file and opens it; fails the test on any script error or CSP violation. */
async function openReport(results: Results, name: string): Promise<{ page: Page; problems: string[] }> {
  const file = join(dir, `${name}.html`);
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
}

function visibleCaseRows(page: Page) {
  return page.locator('[data-testid="cases"] tbody tr:visible');
}

test('a person sees the verdict, the target and the counts', async () => {
  const { page, problems } = await openReport(createResultsFixture(), 'verdict');
  await expect(page.getByTestId('verdict')).toBeVisible();
  await expect(page.getByTestId('verdict')).toHaveText('Non-conforming');
  await expect(page.getByTestId('target')).toHaveText('https://impl.example');
  await expect(page.getByTestId('count-FAIL')).toContainText('1');
  await expect(page.getByTestId('count-PASS')).toContainText('3');
  // The script ran (its CSP hash matched): it reveals the filter bar it drives.
  await expect(page.getByTestId('filters')).toBeVisible();
  expect(problems).toEqual([]);
});

test('the matrix shows the worst outcome and case count per endpoint and aspect, and filters the cases', async () => {
  const { page, problems } = await openReport(createResultsFixture(), 'matrix');
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

test('a person can open a failure and see requirement, spec text, expected vs actual, the exchange and the curl', async () => {
  const { page, problems } = await openReport(createResultsFixture(), 'failure');
  await expect(page.getByTestId('failure')).toHaveCount(3);
  const failure = page.locator('[data-testid="failure"][data-case="assignees/single-page-omits-link"]');
  await expect(failure.getByTestId('spec-quote')).toBeHidden();

  // From the case table, as a reader would get there.
  await page.locator('[data-testid="cases"]').getByRole('link', { name: 'GET assignees with every result on one page omits the link header' }).click();
  await expect(failure).toHaveAttribute('open', '');
  await expect(failure.getByTestId('requirement')).toContainText('pagination.link-omitted-single-page');
  await expect(failure.getByTestId('requirement')).toContainText('MUST');
  await expect(failure.getByTestId('spec-quote')).toBeVisible();
  await expect(failure.getByTestId('spec-quote')).toHaveText('When the endpoint is not paginated, or all results fit on one page, the `link` header is omitted.');
  await expect(failure.getByTestId('expected')).toContainText('no link header (2 assignees fit on one page of 100)');
  await expect(failure.getByTestId('actual')).toContainText('link: <https://impl.example/repos/octo-org/hello-world/assignees?per_page=100&page=1>; rel="first"');
  await expect(failure.getByTestId('request')).toContainText('GET https://impl.example/repos/octo-org/hello-world/assignees?per_page=100');
  await expect(failure.getByTestId('request')).toContainText('authorization: Bearer $TOKEN');
  await expect(failure.getByTestId('response')).toContainText('200 OK');
  await expect(failure.getByTestId('response-body')).toContainText('"login": "octocat",');
  const curl = failure.getByTestId('curl');
  await expect(curl).toBeVisible();
  await expect(curl).toHaveText(
    `curl -sS -i -H 'accept: application/vnd.service+json' -H "authorization: Bearer $TOKEN" 'https://impl.example/repos/octo-org/hello-world/assignees?per_page=100'`,
  );
  const copy = failure.getByTestId('copy-curl');
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

test('script a hostile target put in a response body, a header or a message does not run and shows as text', async () => {
  const results = createResultsFixture();
  const failing = results.cases[1]!;
  failing.failure!.exchange!.response!.headers.push(['x-evil', '<script>window.__pwned = "header"; alert(1)</script>']);
  failing.failure!.exchange!.response!.body = '<script>window.__pwned = "body"; alert(2)</script><img src=x onerror="window.__pwned = 1">';
  failing.message = '</summary></details><script>window.__pwned = "message"</script>';
  const { page, problems } = await openReport(results, 'hostile');
  const failure = page.locator('[data-testid="failure"][data-case="assignees/single-page-omits-link"]');
  await failure.locator('summary').click();
  await expect(failure.getByTestId('response')).toContainText('x-evil: <script>window.__pwned = "header"; alert(1)</script>');
  await expect(failure.getByTestId('response-body')).toHaveText('<script>window.__pwned = "body"; alert(2)</script><img src=x onerror="window.__pwned = 1">');
  expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
  expect(await page.locator('script').count()).toBe(1);
  expect(await page.locator('img').count()).toBe(0);
  expect(problems).toEqual([]);
});
