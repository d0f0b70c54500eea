import { readFile, writeFile } from 'node:fs/promises';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { runAlone } from '../helpers/run-alone.ts';
import { CONSOLE_ENV, startConsoleCli, writeConsoleConfig, type ConsoleCli } from '../helpers/start-console-cli.ts';
import type { WrittenConfig } from '../helpers/write-gateway-config.ts';

/** `gateway start --config`: a reload of the file keeps the console's overrides over the new file. */
runAlone();

let config: WrittenConfig;
let gateway: ConsoleCli;
beforeAll(async () => {
  config = await writeConsoleConfig(false);
  gateway = await startConsoleCli(config.file);
}, 90_000);
afterAll(async () => {
  await gateway?.stop();
  await config?.remove();
});

const admin = async (path: string, body?: unknown) => {
  const reply = await fetch(gateway.adminUrl + path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${CONSOLE_ENV.OPS_KEY}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: reply.status, json: await reply.json() };
};

const chatStatus = () =>
  new OpenAI({ apiKey: CONSOLE_ENV.TEAM_KEY, baseURL: `${gateway.url}/v1`, maxRetries: 0 }).chat.completions
    .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] })
    .then(() => 200, (error: { status?: number }) => error.status);

describe('console overrides and a reload of gateway.yaml', () => {
  it('stay in force over the reloaded file, which serves its own changes too', async () => {
    expect(await chatStatus()).toBe(200);
    expect((await admin('/admin/keys/disable', { name: 'team' })).status).toBe(200);
    expect(await chatStatus()).toBe(401);
    const raw = parse(await readFile(config.file, 'utf8'));
    raw.models['added-by-reload'] = { vendor: 'openai', upstream: 'gpt-4o-mini' };
    await writeFile(config.file, stringify(raw));
    const reload = await admin('/admin/reload', {});
    expect(reload.status).toBe(200);
    expect((await admin('/admin/models')).json.models.map((model: any) => model.id)).toContain('added-by-reload');
    expect(await chatStatus()).toBe(401);
    expect((await admin('/admin/keys')).json.keys.find((key: any) => key.name === 'team')).toMatchObject({ disabled: true });
    expect((await admin('/admin/keys/enable', { name: 'team' })).status).toBe(200);
    expect(await chatStatus()).toBe(200);
    expect(gateway.output()).toMatch(/"admin":"ops","key":"team"/);
  });
});
