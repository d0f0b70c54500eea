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
 * per model too, and the other process is listed as an instance of its own (labelled, not summed) whose
 * overview the operator can pick: its charts, per style, per model and its latest requests, every name as text.
 */
runAlone();

const SHOTS = 'test/console/screenshots';
let redis: TestRedis;
let config: WrittenConfig;
let gateways: ConsoleCli[] = [];
let browser: TestBrowser;
let page: Page;
const pageErrors: string[] = [];
const dialogs: string[] = [];
/** A model gateway.yaml does not name, as a client may send it: published to the other instances as `unknown`. */
const UNNAMED_MODEL = 'no-such-<b>model</b>';

beforeAll(async () => {
  redis = await startTestRedis();
  config = await writeConsoleConfig(true);
  gateways = await Promise.all([0, 1].map(() => startConsoleCli(config.file, { GATEWAY_REDIS_URL: redis.url })));
  await mkdir(SHOTS, { recursive: true });
  browser = await launchBrowser();
  page = await browser.context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('dialog', (dialog) => void dialogs.push(dialog.message()));
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

/** A Messages call (Anthropic style) made with curl on gateway `index`; returns the status curl saw. */
async function curlMessage(index: number, model: string): Promise<string> {
  const body = JSON.stringify({ model, max_tokens: 16, messages: [{ role: 'user', content: 'chart me' }] });
  const { stdout } = await promisify(execFile)('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', `${gateways[index].url}/v1/messages`,
    '-H', `x-api-key: ${CONSOLE_ENV.TEAM_KEY}`, '-H', 'anthropic-version: 2023-06-01', '-H', 'content-type: application/json', '-d', body]);
  return stdout;
}

/** The requests column of table `id` by row name. */
async function readTable(id: string): Promise<Record<string, string>> {
  const rows = await page.$$eval(`#${id} tbody tr`, (trs) => trs.map((tr) => [tr.children[0].textContent, tr.children[1].textContent]));
  return Object.fromEntries(rows);
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

  it("shows the other process sharing Redis as it shows this one: its charts, per style, per model and its latest requests, names as text", async () => {
    for (let i = 0; i < 3; i++) expect(await curlChat(1, 'gpt-4o-mini')).toBe('200');
    expect(await curlChat(1, HOSTILE_MODEL)).toBe('200');
    expect(await curlChat(1, UNNAMED_MODEL)).toBe('404');
    expect(await curlMessage(1, 'claude-haiku-4-5')).toBe('200');
    const other = `/${gateways[1].child.pid}`;
    const otherRow = page.locator('#overview-instances tbody tr', { hasText: other });
    // Each instance publishes every 5 s; the page refreshes every 5 s.
    await expect.poll(async () => (await otherRow.count()) === 1 && (await otherRow.locator('td').nth(1).textContent()), { timeout: 20_000 }).toBe('6');
    expect(await page.locator('#overview-instances tbody tr', { hasText: '(this one)' }).textContent()).toContain(`/${gateways[0].child.pid}`);
    const otherId = ((await otherRow.locator('td').first().textContent()) ?? '').trim();
    await page.selectOption('#overview-instance', otherId);
    await expect.poll(() => page.locator('#overview-shown').textContent()).toContain(`Instance ${otherId}`);
    // The chart keeps its group (claude-haiku-4-5 from the test before) where the other instance has it too.
    expect(await page.inputValue('#overview-scope')).toBe('model:claude-haiku-4-5');
    await page.selectOption('#overview-scope', 'total');
    expect(Math.round(sum(await readChart('chart-requests')) * 60)).toBe(6);
    expect(await readTable('overview-styles')).toEqual({ anthropic: '1', openai: '5' });
    expect(await readTable('overview-models')).toEqual({ 'claude-haiku-4-5': '1', 'gpt-4o-mini': '3', [HOSTILE_MODEL]: '1', unknown: '1' });
    const recent = await page.$$eval('#overview-recent tbody tr', (rows) => rows.map((row) => Array.from(row.children, (cell) => cell.textContent)));
    expect(recent.map((cells) => [cells[1], cells[2], cells[3], cells[5]])).toEqual([
      ['team', 'anthropic', 'claude-haiku-4-5', '200'],
      ['team', 'openai', 'unknown', '404 model_not_found'],
      ['team', 'openai', HOSTILE_MODEL, '200'],
      ...Array.from({ length: 3 }, () => ['team', 'openai', 'gpt-4o-mini', '200']),
    ]);
    // A model named as markup is text on the other instance's page; a client's unknown model name never reaches it.
    await page.selectOption('#overview-scope', `model:${HOSTILE_MODEL}`);
    await expect.poll(async () => Math.round(sum(await readChart('chart-requests')) * 60)).toBe(1);
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.content()).not.toContain('no-such');
    expect(await page.content()).not.toContain(CONSOLE_ENV.TEAM_KEY);
    // The live refresh keeps the instance chosen.
    const before = await page.$('#overview-recent');
    await expect.poll(async () => !(await before!.evaluate((node) => node.isConnected)), { timeout: 8000 }).toBe(true);
    expect(await page.inputValue('#overview-instance')).toBe(otherId);
    await page.screenshot({ path: `${SHOTS}/overview-other-instance.png`, fullPage: true });
    // This process's own overview still counts only its own requests.
    await page.selectOption('#overview-instance', '');
    await page.selectOption('#overview-scope', 'total');
    await expect.poll(async () => Math.round(sum(await readChart('chart-requests')) * 60)).toBe(5);
    expect(await page.locator('#overview-shown').count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/overview-charts.png`, fullPage: true });
    expect(pageErrors).toEqual([]);
    expect(dialogs).toEqual([]);
  });
});
