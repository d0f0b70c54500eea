import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompiledConfig } from '../../src/config/types.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

const TEAM_KEY = 'sk-sequence-team-key-0123456789';
let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway((config: CompiledConfig) => ({
    ...config,
    keys: [...config.keys, { name: 'team', secret: { sha256: createHash('sha256').update(TEAM_KEY).digest('hex') }, models: ['*'], limits: {}, strict: false }],
  }));
});
afterAll(() => gw.close());

/** A presented key: one of the two configured, or one of them changed at one place (a character replaced, cut or added). */
const arbitraryPresented = fc.oneof(
  fc.constantFrom(TEAM_KEY, 'client'),
  fc.tuple(fc.constantFrom(TEAM_KEY, 'client'), fc.nat(), fc.constantFrom('replace', 'cut', 'add'), fc.constantFrom('x', '0', '~', 'K')).map(
    ([which, at, how, char]) => ({ which, at, how, char }),
  ),
);

function writeKey(presented: string | { which: string; at: number; how: string; char: string }, clientKey: string): { key: string; good: boolean } {
  const resolve = (which: string) => (which === 'client' ? clientKey : which);
  if (typeof presented === 'string') return { key: resolve(presented), good: true };
  const base = resolve(presented.which);
  const at = presented.at % base.length;
  const key =
    presented.how === 'cut' ? base.slice(0, at) + base.slice(at + 1) : presented.how === 'add' ? base.slice(0, at) + presented.char + base.slice(at) : base.slice(0, at) + presented.char + base.slice(at + 1);
  return { key, good: key === TEAM_KEY || key === clientKey };
}

describe('keys presented one after another on one kept-alive connection', () => {
  it('are each answered as on a new connection: 200 for a configured key, 401 invalid_api_key for any other', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(arbitraryPresented, { minLength: 2, maxLength: 6 }), async (sequence) => {
        const agent = new Agent({ connections: 1 });
        try {
          for (const presented of sequence) {
            const { key, good } = writeKey(presented, gw.key);
            const response = await request(`${gw.url}/v1/models`, { dispatcher: agent, headers: { authorization: `Bearer ${key}` } });
            const body = (await response.body.json()) as any;
            expect([key, response.statusCode, body.error?.code]).toEqual([key, good ? 200 : 401, good ? undefined : 'invalid_api_key']);
          }
        } finally {
          await agent.close();
        }
      }),
      { numRuns: 40, seed: 20261125 },
    );
  }, 60_000);
});
