import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';
import { getFuzzTimeout, runFuzz } from './fuzz-run.ts';

const RUNS = 60;

/** X-Forwarded-For is read when server.trust_proxy is on: any value gives a short client address or the socket's, never an error. */
describe('fuzz: X-Forwarded-For with server.trust_proxy', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway((config) => ({ ...config, server: { ...config.server, trustProxy: true } }));
  });
  afterAll(() => gw.close());

  it(
    'answers every request as usual and logs as client the first entry, trimmed and clipped to 64 characters (else the socket address)',
    async () => {
      const value = fc.oneof(
        fc.stringMatching(/^[\x20-\x7e]{0,300}$/),
        fc.array(fc.ipV4(), { minLength: 1, maxLength: 4 }).map((ips) => ips.join(', ')),
        fc.array(fc.ipV6(), { minLength: 1, maxLength: 3 }).map((ips) => ips.join(',')),
        fc.constant(`${gw.key}, 10.0.0.1`),
      );
      await runFuzz('forwarded-for', fc.array(value, { minLength: 1, maxLength: 3 }), async (values) => {
        const problems: string[] = [];
        const headers = new Headers({ authorization: `Bearer ${gw.key}` });
        for (const v of values) headers.append('x-forwarded-for', v);
        const event = gw.nextEvent();
        const response = await fetch(`${gw.url}/v1/models`, { headers });
        await response.text();
        if (response.status !== 200) problems.push(`status ${response.status}`);
        const { client } = await event;
        // What the gateway saw: fetch trims each value and joins repeated headers with ", ".
        const first = values.map((v) => v.trim()).join(', ').split(',')[0].trim();
        const expected = first ? first.slice(0, 64) : undefined;
        if (expected !== undefined ? client !== expected : !/127\.0\.0\.1$/.test(client ?? '')) problems.push(`client ${JSON.stringify(client)}, expected ${JSON.stringify(expected)}`);
        return problems;
      }, RUNS);
      expect(gw.events.length).toBeGreaterThanOrEqual(RUNS);
    },
    getFuzzTimeout(RUNS, 60),
  );
});
