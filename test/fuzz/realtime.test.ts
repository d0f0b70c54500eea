import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { FUZZ_CLIENT_KEYS, startFuzzGateway, type FuzzGateway } from './fuzz-gateway.ts';
import { describeCase } from './arbitraries-requests.ts';
import { checkAnswer, checkVendorCalls, findSecrets } from './check-answer.ts';
import { getFuzzTimeout, runFuzz } from './fuzz-run.ts';
import { formatHead } from './raw-http.ts';
import { runRealtimeSession, type RealtimeSession } from './realtime-client.ts';
import { checkProcess, getExcerpt, markCase, runHttpCase, settleCase } from './run-case.ts';

const SESSION_RUNS = 40;
const HANDSHAKE_RUNS = 20;
const MODELS = ['gpt-realtime', 'gpt-4o', 'claude-sonnet-4-6', 'no-such-model', '%FF', '', ...['echo-400', 'echo-401', 'echo-500', 'garbage', 'cut', 'echo-stream'].map((m) => `hostile-openai-${m}`)];
const NO_KEY = ['none', 'wrong', 'query'];

const arbitrarySession = fc
  .record({
    model: fc.option(fc.constantFrom(...MODELS), { nil: undefined }),
    auth: fc.constantFrom('bearer', 'subprotocol', ...NO_KEY),
    protocols: fc.array(fc.constantFrom('realtime', 'openai-beta.realtime-v1', 'x-custom'), { maxLength: 2 }),
    frames: fc.array(fc.oneof(fc.json().map(String), fc.string({ maxLength: 200 }), fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)), fc.constant('x'.repeat(200_000))), { maxLength: 5 }),
    closeCode: fc.constantFrom(1000, 1001, 3000, 4999),
  })
  .map(({ model, auth, protocols, frames, closeCode }) => {
    const query = [...(model === undefined ? [] : [`model=${model}`]), ...(auth === 'query' ? [`key=${FUZZ_CLIENT_KEYS.main}`] : [])];
    const session: RealtimeSession = { target: `/v1/realtime${query.length ? `?${query.join('&')}` : ''}`, headers: {}, protocols: [...new Set(protocols)], frames, closeCode };
    if (auth === 'bearer') session.headers.authorization = `Bearer ${FUZZ_CLIENT_KEYS.main}`;
    if (auth === 'wrong') session.headers.authorization = 'Bearer sk-not-a-configured-key';
    if (auth === 'subprotocol') session.protocols.push(`openai-insecure-api-key.${FUZZ_CLIENT_KEYS.main}`);
    return { session, noKey: NO_KEY.includes(auth) };
  });

describe('fuzz: realtime WebSocket upgrades and frames', () => {
  let fuzz: FuzzGateway;
  beforeAll(async () => {
    fuzz = await startFuzzGateway();
  });
  afterAll(() => fuzz.close());

  it(
    'refuses with an OpenAI error and x-request-id or relays frames, never relaying a secret, with every vendor socket closed after',
    async () => {
      await runFuzz(
        'realtime sessions',
        arbitrarySession,
        async ({ session, noKey }) => {
          const mark = markCase(fuzz);
          const result = await runRealtimeSession(fuzz.url, session, 5000);
          const settled = await settleCase(fuzz, mark);
          const expect = { style: 'openai' as const, rejectBeforeVendor: noKey ? 'an upgrade without a valid key' : undefined };
          const problems = [...settled.problems];
          if (result.status === 101) {
            if (!result.headers['x-request-id']) problems.push('101 without an x-request-id header');
          } else {
            problems.push(...checkAnswer(result.status, result.headers, Buffer.from(result.text), expect));
          }
          problems.push(...checkVendorCalls(result.status, settled.calls, undefined, expect));
          const received = JSON.stringify(result.headers) + result.text;
          for (const name of findSecrets(received, fuzz.secrets)) problems.push(`${name} in the realtime ${result.status} answer: ${getExcerpt(received, fuzz.secrets[name])}`);
          return [...problems, ...(await checkProcess(fuzz, mark))];
        },
        SESSION_RUNS,
      );
    },
    getFuzzTimeout(SESSION_RUNS, 400),
  );

  it(
    'answers malformed upgrade requests (bad key, version, method, upgrade token) with a JSON error and x-request-id before calling the vendor',
    async () => {
      const mutations: [string, string, [string, string][]][] = [
        ['bad Sec-WebSocket-Key', 'GET', [['sec-websocket-key', 'short'], ['sec-websocket-version', '13']]],
        ['no Sec-WebSocket-Key', 'GET', [['sec-websocket-version', '13']]],
        ['version 12', 'GET', [['sec-websocket-key', 'dGhlIHNhbXBsZSBub25jZQ=='], ['sec-websocket-version', '12']]],
        ['POST upgrade', 'POST', [['sec-websocket-key', 'dGhlIHNhbXBsZSBub25jZQ=='], ['sec-websocket-version', '13'], ['content-length', '0']]],
      ];
      const cases = fc.tuple(fc.constantFrom(...mutations), fc.constantFrom('websocket', 'WebSocket', 'h2c'), fc.constantFrom('gpt-realtime', 'hostile-openai-echo-400', '%FF')).map(([[name, method, extra], upgrade, model]) => {
        const headers: [string, string][] = [['host', 'fuzz.test'], ['connection', 'Upgrade'], ['upgrade', upgrade], ['authorization', `Bearer ${FUZZ_CLIENT_KEYS.main}`], ...extra];
        return describeCase({ head: formatHead(method, `/v1/realtime?model=${model}`, headers) }, { style: 'openai', rejectBeforeVendor: `an upgrade with ${name} (upgrade: ${upgrade})` });
      });
      await runFuzz('realtime handshakes', cases, (c) => runHttpCase(fuzz, c.request, c.expect), HANDSHAKE_RUNS);
    },
    getFuzzTimeout(HANDSHAKE_RUNS, 300),
  );
});
