/**
 * Test helper: a headless Chromium for the tests that look at pages. Debian's
 * chromium (/usr/bin/chromium, which .ci/run installs) when it is there; otherwise the
 * one shipped inside the @sparticuz/chromium npm package (a devDependency, unpacked
 * into the OS temp dir on first use), so `npm install && npm test` needs no system
 * browser. SIM_TEST_BROWSER=npm forces the npm one (to check it on a machine that has
 * both), SIM_TEST_BROWSER=system the system one.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

const SYSTEM_CHROMIUM = '/usr/bin/chromium';

export interface LaunchedBrowser {
  browser: Browser;
  /** Which Chromium it is: 'system' or 'npm'. */
  source: 'system' | 'npm';
}

/**
 * Chromium's configuration and cache folders, in a scratch folder of the run's (removed
 * with it): it wrote ~/.config/chromium (crash reports) and ~/.cache/dconf in the home of
 * whoever ran npm test.
 */
function scratchHome(): NodeJS.ProcessEnv {
  const home = mkdtempSync(join(tmpdir(), 'sim-chromium-'));
  return { ...process.env, XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache') };
}

export async function launchChromium(): Promise<LaunchedBrowser> {
  const wanted = process.env.SIM_TEST_BROWSER;
  if (wanted !== undefined && wanted !== 'system' && wanted !== 'npm') throw new Error(`SIM_TEST_BROWSER=${wanted}: expected system or npm`);
  if (wanted === 'system' && !existsSync(SYSTEM_CHROMIUM)) throw new Error(`SIM_TEST_BROWSER=system but ${SYSTEM_CHROMIUM} is missing (apt-get install chromium)`);
  if (wanted !== 'npm' && existsSync(SYSTEM_CHROMIUM)) {
    return { browser: await chromium.launch({ executablePath: SYSTEM_CHROMIUM, args: ['--no-sandbox'], env: scratchHome() }), source: 'system' };
  }
  const { default: packaged } = await import('@sparticuz/chromium');
  const executablePath = await packaged.executablePath();
  // Not the package's own flag list, which is tuned for serverless functions
  // (--single-process, whose browser ends with its first page; --disable-web-security).
  return { browser: await chromium.launch({ executablePath, args: ['--no-sandbox', '--font-render-hinting=none'], headless: true, env: scratchHome() }), source: 'npm' };
}
