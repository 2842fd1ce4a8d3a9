import { chromium, type Browser } from 'playwright-core';
import { ensureCommand } from './services.js';

/** A headless Debian Chromium, driven by playwright-core (installed with apt when missing, as Redis is). */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH ?? ensureCommand('chromium', 'chromium', 'set CHROMIUM_PATH');
  // Root in a container: no sandbox; a small /dev/shm: use /tmp.
  return chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'] });
}
