import { readFile, writeFile } from 'node:fs/promises';
import OpenAI from 'openai';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAlone } from '../helpers/run-alone.ts';
import { CONSOLE_ENV, startConsoleCli, writeConsoleConfig, type ConsoleCli } from '../helpers/start-console-cli.ts';
import type { WrittenConfig } from '../helpers/write-gateway-config.ts';

/**
 * With `--workers 2` the primary serves the console: the workers' rows reach its tail, its overrides reach
 * the workers, and its Models and Keys pages follow a reload of the --config file.
 */
runAlone();

let config: WrittenConfig;
let gateway: ConsoleCli;
beforeAll(async () => {
  config = await writeConsoleConfig(false);
  gateway = await startConsoleCli(config.file, {}, ['--workers', '2']);
}, 90_000);
afterAll(async () => {
  await gateway?.stop();
  await config?.remove();
});

const admin = (path: string, body?: unknown) =>
  fetch(gateway.adminUrl + path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${CONSOLE_ENV.OPS_KEY}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

function chatStatus(): Promise<number | undefined> {
  const client = new OpenAI({ apiKey: CONSOLE_ENV.TEAM_KEY, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  return client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }).then(() => 200, (error: { status?: number }) => error.status);
}

describe('the console of a --workers primary', { timeout: 60_000 }, () => {
  it('tails the requests the workers served', async () => {
    const primaryPid = gateway.child.pid;
    for (let i = 0; i < 4; i++) expect(await chatStatus()).toBe(200);
    const tail = await admin('/admin/usage/tail');
    const reader = tail.body!.pipeThrough(new TextDecoderStream()).getReader();
    // A worker sends its row over IPC after its answer, so the last row may reach the primary after the tail
    // opened: read the backlog and the live rows until all four are there (the test's timeout bounds it).
    let text = '';
    const readRows = () => text.split('\n').slice(0, -1).filter(Boolean).map((line) => JSON.parse(line));
    const readTeamRows = () => readRows().filter((row) => row.key === 'team');
    while (!text.includes('"open":true') || readTeamRows().length < 4) text += (await reader.read()).value ?? '';
    await reader.cancel();
    const rows = readTeamRows();
    expect(rows).toHaveLength(4);
    expect(rows.every((row) => row.pid !== primaryPid && row.model === 'gpt-4o-mini' && row.status === 200)).toBe(true);
    const overview = await (await admin('/admin/overview')).json();
    expect(overview.total.summary.requests).toBeGreaterThanOrEqual(4);
  });

  it('disables a key on every worker, and enables it again', async () => {
    expect((await admin('/admin/keys/disable', { name: 'team' })).status).toBe(200);
    // Every worker polls the overrides file: after a while no worker admits the key.
    await expect.poll(async () => (await Promise.all([1, 2, 3, 4].map(chatStatus))).every((status) => status === 401), { timeout: 5000 }).toBe(true);
    expect((await admin('/admin/keys/enable', { name: 'team' })).status).toBe(200);
    await expect.poll(async () => (await Promise.all([1, 2, 3, 4].map(chatStatus))).every((status) => status === 200), { timeout: 5000 }).toBe(true);
    const listed = (await (await admin('/admin/keys')).json()).keys.find((key: any) => key.name === 'team');
    expect(listed).toMatchObject({ disabled: false, usage: { requestsLastMinute: expect.any(Number) } });
  });

  it('lists the models and keys of the reloaded --config file, not the ones it started with, which every worker numbers as the primary does', async () => {
    const raw = parse(await readFile(config.file, 'utf8'));
    raw.models['added-by-reload'] = { vendor: 'openai', upstream: 'gpt-4o-mini' };
    raw.keys.push({ name: 'added-key', sha256: 'c'.repeat(64), models: ['added-by-reload'] });
    await writeFile(config.file, stringify(raw));
    const reload = await admin('/admin/reload', {});
    expect(reload.status).toBe(200);
    const { generation } = await reload.json();
    const models = (await (await admin('/admin/models')).json()).models.map((model: any) => model.id);
    expect(models).toContain('added-by-reload');
    const keys = (await (await admin('/admin/keys')).json()).keys;
    expect(keys.find((key: any) => key.name === 'added-key')).toMatchObject({ models: ['added-by-reload'] });
    expect(JSON.stringify(keys)).not.toContain('c'.repeat(64));
    // The workers serve it too.
    const client = new OpenAI({ apiKey: CONSOLE_ENV.TEAM_KEY, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    expect((await client.chat.completions.create({ model: 'added-by-reload', messages: [{ role: 'user', content: 'hi' }] })).choices.length).toBe(1);
    // One numbering for every worker: the console's overrides did not number configs past the primary's reload.
    const readRequests = () => gateway.output().split('\n').filter((line) => line.includes('"msg":"request"')).map((line) => JSON.parse(line));
    await expect.poll(() => readRequests().some((line) => line.model === 'added-by-reload'), { timeout: 5000 }).toBe(true);
    expect(readRequests().find((line) => line.model === 'added-by-reload').generation).toBe(generation);
    expect(Math.max(...readRequests().map((line) => line.generation))).toBe(generation);
  });
});
