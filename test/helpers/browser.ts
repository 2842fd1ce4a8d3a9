import { mkdirSync } from 'node:fs';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { ensureCommand } from './services.js';

/** A headless Debian Chromium, driven by playwright-core (installed with apt when missing, as Redis is). */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH ?? ensureCommand('chromium', 'chromium', 'set CHROMIUM_PATH');
  // Root in a container: no sandbox; a small /dev/shm: use /tmp.
  return chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'] });
}

const ARTIFACTS = 'test/artifacts';

/** Saves a screenshot of the page (or of one element) as test/artifacts/<name>.png, ignored by git. */
export async function screenshot(target: Pick<Page, 'screenshot'> | Pick<Locator, 'screenshot'>, name: string, fullPage = true): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await target.screenshot({ path: `${ARTIFACTS}/${name}.png`, ...(fullPage && 'mainFrame' in target ? { fullPage } : {}) });
}
