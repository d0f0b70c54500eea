import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileConfigFile } from '../../src/config/index.ts';
import { readKeyDigest, readTaskSecret } from '../../src/runtime/secrets.ts';
import { decodeTaskId, encodeTaskId } from '../../src/runtime/task-id.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

/** With no task secret set and none kept, task ids are signed with a secret nobody reading the config can compute. */
const CLIENT_KEY = 'sk-only-hashed-client';
const HASHED = createHash('sha256').update(CLIENT_KEY).digest('hex');
/** What the config alone lets anyone compute: the secret earlier versions derived from the usable keys' digests. */
const getDerivedSecret = () => {
  const digests = gw.config.keys.map((key) => readKeyDigest(key, gw.env)?.toString('hex')).filter((hex) => hex !== undefined);
  return createHash('sha256').update(`tasks:${digests.join()}`).digest('hex');
};

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway((config) => ({ ...config, keys: [{ name: 'team', secret: { sha256: HASHED }, models: ['*'], limits: {}, strict: false }] }));
});
afterAll(() => gw.close());

const call = (path: string, init: RequestInit = {}) => fetch(`${gw.url}${path}`, { ...init, headers: { authorization: `Bearer ${CLIENT_KEY}`, 'content-type': 'application/json', ...init.headers } });

describe('the task secret of a gateway that could keep none', () => {
  it('is not derivable from gateway.yaml: an id forged from the sha256 keys is 404, the gateway-signed one resolves', async () => {
    expect(gw.env.GATEWAY_TASK_SECRET).toBeFalsy();
    const created = await call('/v1/videos', { method: 'POST', body: JSON.stringify({ model: 'sora-2', prompt: 'a harbour' }) });
    expect(created.status).toBe(200);
    const { id } = (await created.json()) as { id: string };
    const vendorId = decodeTaskId(id, gw.gateway.getSnapshot().taskSecret, 'team').task;
    expect(gw.gateway.getSnapshot().taskSecret).not.toBe(getDerivedSecret());
    const forged = encodeTaskId({ model: 'sora-2', task: vendorId, key: 'team' }, getDerivedSecret());
    const calls = gw.sims.openai.received.length;
    const refused = await call(`/v1/videos/${forged}`);
    expect(refused.status).toBe(404);
    expect(((await refused.json()) as any).error.code).toBe('task_not_found');
    expect(gw.sims.openai.received.length).toBe(calls);
    const found = await call(`/v1/videos/${id}`);
    expect(found.status).toBe(200);
    expect(gw.sims.openai.received.at(-1)!.url).toBe(`/v1/videos/${vendorId}`);
  });

  it('is random, the same within a process and different in another process', async () => {
    const { config } = await compileConfigFile('gateway.yaml');
    const mine = readTaskSecret(config!, {});
    expect(mine).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(readTaskSecret(config!, {})).toBe(mine);
    const script = "const { readTaskSecret } = await import('./src/runtime/secrets.ts'); process.stdout.write(readTaskSecret({ server: { taskSecret: { env: 'GATEWAY_TASK_SECRET' } } }, {}));";
    const run = () => promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { env: { ...process.env, GATEWAY_TASK_SECRET: '' } });
    const [a, b] = await Promise.all([run(), run()]);
    expect(a.stdout).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Set([a.stdout, b.stdout, mine]).size).toBe(3);
  }, 60_000);

  it('gives way to the kept secret and to the environment variable', async () => {
    const { config } = await compileConfigFile('gateway.yaml');
    expect(readTaskSecret(config!, {}, 'kept-secret')).toBe('kept-secret');
    expect(readTaskSecret(config!, { GATEWAY_TASK_SECRET: 'from-env' }, 'kept-secret')).toBe('from-env');
  });
});
