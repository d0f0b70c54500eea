import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { TASK_SECRET_FILE } from '../../src/runtime/keep-task-secret.ts';
import { runAlone } from '../helpers/run-alone.ts';
import { startCliGateway } from '../helpers/start-cli-gateway.ts';
import { writeGatewayConfig, type WrittenConfig } from '../helpers/write-gateway-config.ts';

runAlone();

/** `gateway start` without GATEWAY_TASK_SECRET, the memory store: the task secret is kept beside the config. */
let written: WrittenConfig;
let unkeepable: WrittenConfig;
beforeAll(async () => {
  written = await writeGatewayConfig(() => undefined);
  unkeepable = await writeGatewayConfig(() => undefined);
  // The secret's file cannot be read or written (a folder in its place): the secret cannot be kept.
  await mkdir(join(dirname(unkeepable.file), TASK_SECRET_FILE));
});
afterAll(async () => {
  await written.remove();
  await unkeepable.remove();
});

const KEY = 'sk-gateway-simulator';
const start = (file = written.file) => startCliGateway(file, { GATEWAY_TASK_SECRET: '', EXTRA_KEY: 'sk-extra-client-key-value' }, ['--simulate'], undefined, 60_000);
const createVideo = async (url: string) => {
  const answer = await fetch(`${url}/v1/videos`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'sora-2', prompt: 'a lighthouse' }) });
  return ((await answer.json()) as { id: string }).id;
};
const lookUp = async (url: string, id: string) => {
  const answer = await fetch(`${url}/v1/videos/${id}`, { headers: { authorization: `Bearer ${KEY}` } });
  return { status: answer.status, json: (await answer.json()) as any };
};

describe('a video task id across a restart with other keys', () => {
  it('still resolves: the secret was created once, kept in a 0600 file beside the config, and read again', async () => {
    const first = await start();
    const id = await createVideo(first.url);
    expect(id).toMatch(/^task_/);
    expect(await first.stop()).toBe(0);
    const file = join(dirname(written.file), TASK_SECRET_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const raw = parse(await readFile(written.file, 'utf8'));
    raw.keys.push({ name: 'extra', key: 'env:EXTRA_KEY', models: ['*'] });
    await writeFile(written.file, stringify(raw));
    const second = await start();
    try {
      // The restarted simulator numbers its videos from 1 again: the first one has the id the old task names.
      expect(await createVideo(second.url)).toBe(id);
      expect(await lookUp(second.url, id)).toMatchObject({ status: 200, json: { id, model: 'sora-2' } });
      expect(second.output()).not.toContain(await readFile(file, 'utf8'));
    } finally {
      await second.stop();
    }
  }, 180_000);
});

describe('a gateway that cannot keep its task secret', () => {
  it('warns at start, signs with a random secret of its own, and its ids answer 404 after a restart', async () => {
    const first = await start(unkeepable.file);
    let id: string;
    try {
      expect(first.output()).toMatch(/task secret could not be kept[^\n]*random secret of this process[^\n]*404 after a restart/);
      id = await createVideo(first.url);
      expect(await lookUp(first.url, id)).toMatchObject({ status: 200, json: { id } });
    } finally {
      expect(await first.stop()).toBe(0);
    }
    const second = await start(unkeepable.file);
    try {
      expect(await createVideo(second.url)).not.toBe(id);
      expect(await lookUp(second.url, id)).toMatchObject({ status: 404, json: { error: { code: 'task_not_found' } } });
    } finally {
      await second.stop();
    }
  }, 180_000);
});
