/**
 * Does the model count cost per request? Chat passthrough at c=64 on a gateway with 10 models (base)
 * against one with 10,000 (subject; 1,000 in quick mode), both started for this scenario only.
 */
import { defineLoadScenario } from './load-scenario.ts';
import type { ScenarioPair } from './types.ts';

/** CPU per request at 10,000 models may be at most 1.05x that at 10 models. */
export const modelCountScenario = defineLoadScenario({
  id: 'model-count',
  title: 'Chat passthrough c=64: gateway with 10 models vs 10,000',
  connections: 64,
  mustSucceed: true,
  request: (ctx) => ({ path: '/v1/chat/completions', bodyFile: ctx.bodies.chat, contentType: 'application/json' }),
  rps: { id: 'model-count-rps', label: 'Gateway c=64 requests/s, {large} models vs 10', unit: 'req/s' },
  cpu: { id: 'model-count-cpu', label: 'Gateway CPU per request, {large} models vs 10', unit: 'µs', target: { kind: 'max-ratio', ratio: 1.05 } },
  async start(ctx): Promise<ScenarioPair> {
    const small = await ctx.startProxy('gateway', 10);
    const large = await ctx.startProxy('gateway', ctx.largeCount).catch(async (error) => {
      await small.stop();
      throw error;
    });
    return {
      base: { label: 'gateway, 10 models', kind: 'gateway', pid: small.proc.pid, origin: small.origin, logFile: small.logFile },
      subject: { label: `gateway, ${ctx.largeCount.toLocaleString('en-US')} models`, kind: 'gateway', pid: large.proc.pid, origin: large.origin, logFile: large.logFile },
      async close() {
        await Promise.all([small.stop(), large.stop()]);
      },
    };
  },
});
