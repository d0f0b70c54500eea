import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRedis, type TestRedis } from '../../limits/redis-server.ts';
import { launchBrowser, type TestBrowser } from '../../helpers/launch-browser.ts';
import { runAlone } from '../../helpers/run-alone.ts';
import { CONSOLE_ENV, HOSTILE_MODEL, startConsoleCli, writeConsoleConfig, type ConsoleCli } from '../../helpers/start-console-cli.ts';
import type { WrittenConfig } from '../../helpers/write-gateway-config.ts';

/**
 * The overview in a real browser over two `gateway start` processes sharing a real Redis: after requests
 * made with curl, its charts (read from the data table beside each) show the last hour minute by minute,
 * per model too, and the other process is listed as an instance of its own (labelled, not summed).
 */
runAlone();

const SHOTS = 'test/console/screenshots';
let redis: TestRedis;
let config: WrittenConfig;
let gateways: ConsoleCli[] = [];
let browser: TestBrowser;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  redis = await startTestRedis();
  config = await writeConsoleConfig(true);
  gateways = await Promise.all([0, 1].map(() => startConsoleCli(config.file, { GATEWAY_REDIS_URL: redis.url })));
  await mkdir(SHOTS, { recursive: true });
  browser = await launchBrowser();
  page = await browser.context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all(gateways.map((gateway) => gateway.stop()));
  await redis?.stop();
  await config?.remove();
});

/** A chat made with curl on gateway `index`; returns the status curl saw. */
async function curlChat(index: number, model: string): Promise<string> {
  const body = JSON.stringify({ model, messages: [{ role: 'user', content: 'chart me' }] });
  const { stdout } = await promisify(execFile)('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', `${gateways[index].url}/v1/chat/completions`,
    '-H', `authorization: Bearer ${CONSOLE_ENV.TEAM_KEY}`, '-H', 'content-type: application/json', '-d', body]);
  return stdout;
}

/** The values of column `column` (1: the first line) of chart `id`'s data table, oldest minute first. */
async function readChart(id: string, column = 1): Promise<number[]> {
  return page.$$eval(`#${id}-data tbody tr`, (rows, at) => rows.map((row) => Number(row.children[at]?.textContent)), column);
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

describe('the overview charts in a browser', { timeout: 90_000 }, () => {
  it('charts the last hour after requests made with curl: every metric, all requests and per model (names as text)', async () => {
    for (const model of ['gpt-4o-mini', 'gpt-4o-mini', 'claude-haiku-4-5', HOSTILE_MODEL]) expect(await curlChat(0, model)).toBe('200');
    expect(await curlChat(0, 'no-such-model')).not.toBe('200');
    await page.goto(`${gateways[0].adminUrl}/console/`);
    await page.waitForSelector('#admin-key');
    await page.keyboard.type(CONSOLE_ENV.OPS_KEY);
    await page.keyboard.press('Enter');
    await page.waitForSelector('#chart-requests-data', { state: 'attached' });
    const requests = await readChart('chart-requests');
    expect(requests).toHaveLength(60);
    expect(Math.round(sum(requests) * 60)).toBe(5);
    expect((await readChart('chart-errors')).at(-1)).toBeGreaterThan(0);
    expect((await readChart('chart-latency', 2)).at(-1)).toBeGreaterThan(0);
    expect((await readChart('chart-ttft')).at(-1)).toBeGreaterThan(0);
    expect((await readChart('chart-tokens')).at(-1)).toBeGreaterThan(0);
    expect(await readChart('chart-spend')).toHaveLength(60);
    expect(await page.locator('#chart-latency polyline').count()).toBe(2);
    await page.selectOption('#overview-scope', 'model:claude-haiku-4-5');
    await expect.poll(async () => Math.round(sum(await readChart('chart-requests')) * 60)).toBe(1);
    expect((await readChart('chart-errors')).at(-1)).toBe(0);
    // A model named as markup is an option's text, and the page holds no image.
    expect(await page.locator(`#overview-scope option[value="model:${HOSTILE_MODEL}"]`).textContent()).toBe(`Model ${HOSTILE_MODEL}`);
    expect(await page.locator('img').count()).toBe(0);
    // The live refresh (every 5 s) keeps the chosen model, and the data table opened.
    await page.click('#chart-requests summary');
    await page.waitForSelector('#chart-requests-data', { state: 'visible' });
    const before = await page.$('#chart-requests-data');
    await expect.poll(async () => (await page.$('#chart-requests-data')) !== null && !(await before!.evaluate((node) => node.isConnected)), { timeout: 8000 }).toBe(true);
    expect(await page.inputValue('#overview-scope')).toBe('model:claude-haiku-4-5');
    expect(await page.isVisible('#chart-requests-data')).toBe(true);
    expect(pageErrors).toEqual([]);
  });

  it('lists the other process sharing Redis as an instance of its own, with its requests and its charts', async () => {
    for (let i = 0; i < 3; i++) expect(await curlChat(1, 'gpt-4o-mini')).toBe('200');
    const other = `/${gateways[1].child.pid}`;
    const otherRow = page.locator('#overview-instances tbody tr', { hasText: other });
    // Each instance publishes every 5 s; the page refreshes every 5 s.
    await expect.poll(async () => (await otherRow.count()) === 1 && (await otherRow.locator('td').nth(1).textContent()), { timeout: 20_000 }).toBe('3');
    expect(await page.locator('#overview-instances tbody tr', { hasText: '(this one)' }).textContent()).toContain(`/${gateways[0].child.pid}`);
    const otherId = ((await otherRow.locator('td').first().textContent()) ?? '').trim();
    await page.selectOption('#overview-scope', `instance:${otherId}`);
    await expect.poll(async () => Math.round(sum(await readChart('chart-requests')) * 60)).toBe(3);
    // This process's own charts still count only its own requests.
    await page.selectOption('#overview-scope', 'total');
    await expect.poll(async () => Math.round(sum(await readChart('chart-requests')) * 60)).toBe(5);
    await page.screenshot({ path: `${SHOTS}/overview-charts.png`, fullPage: true });
    expect(pageErrors).toEqual([]);
  });
});
