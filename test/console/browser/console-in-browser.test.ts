import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { promisify } from 'node:util';
import OpenAI from 'openai';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRedis, type TestRedis } from '../../limits/redis-server.ts';
import { launchBrowser, type TestBrowser } from '../../helpers/launch-browser.ts';
import { runAlone } from '../../helpers/run-alone.ts';
import { CONSOLE_ENV, HOSTILE_MODEL, startConsoleCli, writeConsoleConfig, type ConsoleCli } from '../../helpers/start-console-cli.ts';
import type { WrittenConfig } from '../../helpers/write-gateway-config.ts';

/**
 * The console in a real browser (Debian's chromium through playwright-core) over two `gateway start`
 * processes sharing a real Redis: sign-in, the live tail, markup shown as text, a key's rpm lowered by
 * keyboard (in force on both processes and after their restart), a key issued and then disabled.
 */
runAlone();

const SHOTS = 'test/console/screenshots';
let redis: TestRedis;
let config: WrittenConfig;
let gateways: ConsoleCli[] = [];
let browser: TestBrowser;
let page: Page;
const dialogs: string[] = [];
const pageErrors: string[] = [];

const startBoth = () => Promise.all([0, 1].map(() => startConsoleCli(config.file, { GATEWAY_REDIS_URL: redis.url })));

beforeAll(async () => {
  redis = await startTestRedis();
  config = await writeConsoleConfig(true);
  gateways = await startBoth();
  await mkdir(SHOTS, { recursive: true });
  browser = await launchBrowser();
  page = await browser.context.newPage();
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => pageErrors.push(error.message));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all(gateways.map((gateway) => gateway.stop()));
  await redis?.stop();
  await config?.remove();
});

const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });

/** The status an official OpenAI client gets for a chat under `key` from gateway `index`. */
/** The model name of the issue, word for word: a request for it is refused and shown in the tail as text. */
const LITERAL_MARKUP = '<img src=x onerror=alert(1)>';

function chatStatus(index: number, key: string, model = 'gpt-4o-mini'): Promise<number | undefined> {
  const client = new OpenAI({ apiKey: key, baseURL: `${gateways[index].url}/v1`, maxRetries: 0 });
  return client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] }).then(() => 200, (error: { status?: number }) => error.status);
}

/** Signs in on gateway `index`'s console with the keyboard: the key typed, Enter pressed. */
async function signIn(index: number, key = CONSOLE_ENV.OPS_KEY) {
  await page.goto(`${gateways[index].adminUrl}/console/`);
  await page.waitForSelector('#admin-key');
  await page.keyboard.type(key);
  await page.keyboard.press('Enter');
}

/** The limits of key `name` as gateway `index`'s admin API lists them. */
async function readLimits(index: number, name: string) {
  const reply = await fetch(`${gateways[index].adminUrl}/admin/keys`, { headers: { authorization: `Bearer ${CONSOLE_ENV.OPS_KEY}` } });
  return (await reply.json()).keys.find((key: any) => key.name === name)?.limits;
}

describe('the console in a browser', { timeout: 60_000 }, () => {
  it('refuses a client key, signs in with the admin key kept for the tab only (no cookie, not in the URL)', async () => {
    await signIn(0, CONSOLE_ENV.TEAM_KEY);
    await expect.poll(() => page.textContent('#sign-in-error')).toContain('not an admin key');
    await shot('sign-in');
    await page.fill('#admin-key', '');
    await page.keyboard.type(CONSOLE_ENV.OPS_KEY);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.textContent('header .who')).toBe('Signed in as ops');
    expect(await page.evaluate(() => sessionStorage.getItem('gateway-console-admin-key'))).toBe(CONSOLE_ENV.OPS_KEY);
    expect(page.url()).not.toContain(CONSOLE_ENV.OPS_KEY);
    expect(await browser.context.cookies()).toEqual([]);
    await page.waitForSelector('#overview-total');
    await shot('overview');
  });

  it('shows a request made with curl in the live tail', async () => {
    await page.goto(`${gateways[0].adminUrl}/console/#requests`);
    await expect.poll(() => page.textContent('#tail-state')).toBe('Live.');
    const body = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello from curl' }] });
    const { stdout } = await promisify(execFile)('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', `${gateways[0].url}/v1/chat/completions`,
      '-H', `authorization: Bearer ${CONSOLE_ENV.TEAM_KEY}`, '-H', 'content-type: application/json', '-d', body]);
    expect(stdout).toBe('200');
    const row = page.locator('#tail-rows tr', { hasText: 'gpt-4o-mini' }).first();
    await row.waitFor();
    const text = await row.textContent();
    expect(text).toContain('team');
    expect(text).toContain('openai');
    expect(text).toContain('200');
    expect(await page.textContent('body')).not.toContain('hello from curl');
    await shot('requests');
  });

  it('shows a model named as markup as text, in the tail and on the models page, and runs no script', async () => {
    expect(await chatStatus(0, CONSOLE_ENV.TEAM_KEY, HOSTILE_MODEL)).toBe(200);
    await page.locator('#tail-rows td', { hasText: HOSTILE_MODEL }).first().waitFor();
    // The literal name (spaces: no YAML model can have it) is refused, and its tail row names it as text.
    expect(await chatStatus(0, CONSOLE_ENV.TEAM_KEY, LITERAL_MARKUP)).toBe(404);
    const refused = page.locator('#tail-rows td', { hasText: LITERAL_MARKUP }).first();
    await refused.waitFor();
    expect(await refused.textContent()).toBe(LITERAL_MARKUP);
    expect(await page.locator('img').count()).toBe(0);
    await page.goto(`${gateways[0].adminUrl}/console/#models`);
    const cell = page.locator('#models td', { hasText: HOSTILE_MODEL }).first();
    await cell.waitFor();
    expect(await cell.textContent()).toBe(HOSTILE_MODEL);
    expect(await page.locator('img').count()).toBe(0);
    expect(dialogs).toEqual([]);
    expect(pageErrors).toEqual([]);
    await shot('models');
  });

  it('lowers a key rpm with the keyboard only: 429 on both processes sharing Redis, still after both restart', async () => {
    await page.goto(`${gateways[0].adminUrl}/console/#keys`);
    await page.waitForSelector('#limit-rpm-team');
    for (let presses = 0; presses < 100; presses++) {
      if ((await page.evaluate(() => document.activeElement?.id)) === 'limit-rpm-team') break;
      await page.keyboard.press('Tab');
    }
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('limit-rpm-team');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('1');
    await page.keyboard.press('Enter');
    await shot('keys');
    await expect.poll(() => page.textContent('#keys-status'), { timeout: 5000 }).toBe('Limits of team saved.');
    await expect.poll(() => readLimits(1, 'team'), { timeout: 5000 }).toMatchObject({ rpm: 1 });
    // team made two requests this minute (curl and the markup model): with rpm 1 both processes refuse it.
    expect(await chatStatus(0, CONSOLE_ENV.TEAM_KEY)).toBe(429);
    expect(await chatStatus(1, CONSOLE_ENV.TEAM_KEY)).toBe(429);
    await Promise.all(gateways.map((gateway) => gateway.stop()));
    gateways = await startBoth();
    expect(await readLimits(0, 'team')).toMatchObject({ rpm: 1 });
    expect(await readLimits(1, 'team')).toMatchObject({ rpm: 1 });
    expect(await chatStatus(0, CONSOLE_ENV.TEAM_KEY)).toBe(429);
    expect(await chatStatus(1, CONSOLE_ENV.TEAM_KEY)).toBe(429);
  });

  it('issues a key that calls a model on the other process, then disables it', async () => {
    await signIn(0);
    await page.goto(`${gateways[0].adminUrl}/console/#keys`);
    await page.waitForSelector('#issue-name');
    await page.fill('#issue-name', 'issued-in-browser');
    await page.fill('#issue-models', 'gpt-4o-mini');
    await page.press('#issue-name', 'Enter');
    const secret = (await page.locator('#issued-secret').textContent()) ?? '';
    expect(secret).toMatch(/^gwk-/);
    await expect.poll(() => chatStatus(1, secret), { timeout: 5000 }).toBe(200);
    expect(await chatStatus(1, secret, 'claude-haiku-4-5')).toBe(403);
    await page.getByRole('button', { name: 'Disable issued-in-browser' }).click();
    await expect.poll(() => page.textContent('#keys-status')).toBe('issued-in-browser: disabled.');
    await expect.poll(() => chatStatus(1, secret), { timeout: 5000 }).toBe(401);
    expect(await chatStatus(0, secret)).toBe(401);
    await page.reload();
    await page.waitForSelector('#issue-name');
    expect(await page.textContent('body')).not.toContain(secret);
    await shot('keys-after-changes');
  });

  it('runs the playground in each style: the answer and what the vendor received, with no secret on the page', async () => {
    await page.goto(`${gateways[0].adminUrl}/console/#playground`);
    await page.waitForSelector('#playground-form');
    for (const style of ['openai', 'anthropic', 'gemini']) {
      await page.selectOption('#playground-key', 'simulator');
      await page.selectOption('#playground-model', 'claude-haiku-4-5');
      await page.selectOption('#playground-style', style);
      await page.fill('#playground-prompt', `hello in ${style} style`);
      await page.click('#playground-form button[type=submit]');
      await expect.poll(() => page.textContent('#playground-answer'), { timeout: 10_000 }).toContain(`hello in ${style} style`);
      const received = (await page.textContent('#vendor-request-0')) ?? '';
      expect(received).toMatch(/^POST http:\/\/127\.0\.0\.1:\d+\/v1\/messages/);
      expect(received).toContain('"anthropic-version"');
      expect(JSON.parse(received.slice(received.indexOf('\n\n') + 2))).toMatchObject({ model: 'claude-haiku-4-5' });
      const text = (await page.textContent('body')) ?? '';
      expect(text).not.toMatch(/x-api-key|authorization|Bearer /i);
      expect(text).not.toContain(CONSOLE_ENV.OPS_KEY);
      expect(text).not.toMatch(/sk-[A-Za-z0-9-]{8}/);
      await shot(`playground-${style}`);
    }
  });
});
