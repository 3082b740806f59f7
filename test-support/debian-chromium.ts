// Browser tests of the reports run in Debian's Chromium through Playwright: browsers cannot
// be downloaded where touchstone is built. Without the package a developer gets a skip with
// the reason; CI sets TOUCHSTONE_REQUIRE_BROWSER=1 so a missing browser fails instead of
// silently passing.
import { existsSync } from 'node:fs';
import { test as base } from '@playwright/test';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright';
import { skipUnlessInstalled, type Skippable } from './required-tool.js';

export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

const REQUIRE = 'TOUCHSTONE_REQUIRE_BROWSER';
const MISSING = `${DEBIAN_CHROMIUM} not found: install Debian's chromium package to run the browser tests`;

/** Call at the top of a browser test file: skips it, with the reason, when Chromium is absent and not required. */
export function skipWithoutDebianChromium(test: Skippable): void {
  skipUnlessInstalled(test, existsSync(DEBIAN_CHROMIUM), MISSING, REQUIRE);
}

export async function launchDebianChromium(): Promise<Browser> {
  if (!existsSync(DEBIAN_CHROMIUM)) throw new Error(`${MISSING} (CI sets ${REQUIRE}=1 to fail where it is missing)`);
  return chromium.launch({
    executablePath: DEBIAN_CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** Opens a file written by touchstone (a report) in a Chromium of its own, runs `check` on the page, closes it. */
export async function withFilePage(file: string, check: (page: Page) => Promise<void>): Promise<void> {
  const browser = await launchDebianChromium();
  try {
    const page = await browser.newPage();
    await page.goto(pathToFileURL(file).href);
    await check(page);
  } finally {
    await browser.close();
  }
}

/** Playwright's test with one Debian Chromium per worker, launched only when a test asks for it. */
export const test = base.extend<object, { debianChromium: Browser }>({
  debianChromium: [
    // Playwright reads which fixtures this one needs from the first parameter, so it must be a pattern.
    async ({}, use) => {
      const browser = await launchDebianChromium();
      await use(browser);
      await browser.close();
    },
    { scope: 'worker' },
  ],
});

export { expect } from '@playwright/test';
