import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisStore } from '../../src/limits/redis-store.ts';
import { sendChat } from '../helpers/send-chat.ts';
import { startAdminGateway, TIGHT_SECRET, type AdminGateway } from '../helpers/start-admin-gateway.ts';
import { startTestRedis, type TestRedis } from '../limits/redis-server.ts';
import { createLogCapture } from '../limits/log-capture.ts';
import { readSeries, sumSeries } from '../metrics/read-series.ts';

/** /readyz: ready while the config is loaded, the store is reachable when it must be and nothing drains. */
describe('/readyz', () => {
  it('is 200 while serving and 503 "draining" once the gateway drains (while /healthz stays 200)', async () => {
    const gw = await startAdminGateway();
    try {
      expect(await gw.getAdmin('/readyz')).toMatchObject({ status: 200, json: { status: 'ready' } });
      await gw.gateway.close(1000);
      const reply = await gw.getAdmin('/readyz');
      expect(reply.status).toBe(503);
      expect(reply.json).toEqual({ status: 'not_ready', reasons: ['draining'] });
      expect((await gw.getAdmin('/healthz')).status).toBe(200);
    } finally {
      await gw.admin.close();
      await gw.close().catch(() => undefined);
    }
  });

  describe('with a fail-closed Redis store', () => {
    let redis: TestRedis;
    let gw: AdminGateway;
    const capture = createLogCapture();
    beforeAll(async () => {
      redis = await startTestRedis();
      const store = await createRedisStore({ url: redis.url, failOpen: false, reconnectDelayMs: () => 50, log: capture.log });
      gw = await startAdminGateway({ store });
    }, 20_000);
    afterAll(async () => {
      await gw.close();
      await redis.stop();
    });

    it('is 503 "store unreachable" while Redis is down, and ready again once it is back; the store metrics say so', async () => {
      expect((await gw.getAdmin('/readyz')).status).toBe(200);
      expect((await sendChat(gw.url, { key: gw.key, model: 'sim-openai-chat' })).status).toBe(200);
      await redis.stop();
      let reply = await gw.getAdmin('/readyz');
      for (let i = 0; i < 100 && reply.status === 200; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        reply = await gw.getAdmin('/readyz');
      }
      expect(reply.status).toBe(503);
      expect(reply.json.reasons).toEqual([expect.stringContaining('store unreachable')]);
      // The gateway itself refuses requests of limited keys (fail-closed), and the vendor is not called.
      const received = gw.sims.openai.received.length;
      expect((await sendChat(gw.url, { key: TIGHT_SECRET, model: 'sim-openai-chat' })).status).toBe(503);
      expect(gw.sims.openai.received.length).toBe(received);
      const down = readSeries((await gw.getAdmin('/metrics')).text);
      expect(sumSeries(down, 'gateway_store_up')).toBe(0);
      expect(sumSeries(down, 'gateway_store_errors_total')).toBeGreaterThanOrEqual(1);
      expect(sumSeries(down, 'gateway_store_commands_total')).toBeGreaterThanOrEqual(sumSeries(down, 'gateway_store_errors_total'));
      await redis.start();
      for (let i = 0; i < 200 && reply.status !== 200; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        reply = await gw.getAdmin('/readyz');
      }
      expect(reply.json).toEqual({ status: 'ready' });
    }, 20_000);
  });
});
