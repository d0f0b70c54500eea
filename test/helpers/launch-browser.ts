import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Debian's chromium (`apt-get install chromium`, as .ci/run does). */
export const CHROMIUM = '/usr/bin/chromium';

/** Chromium's flags for tests: headless, no sandbox (root in CI), no GPU, no traffic of its own. */
const FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/** A browser for a test: a context on a fresh profile folder, removed by `close`. */
export interface TestBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Starts the system chromium through playwright-core with a fresh `--user-data-dir`. */
export async function launchBrowser(): Promise<TestBrowser> {
  const profile = await mkdtemp(join(tmpdir(), 'console-browser-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS, viewport: { width: 1400, height: 900 } });
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
