/**
 * Image generation, shape A -> envelope: an OpenAI-style `POST /v1/images/generations` to a model on an
 * asynchronous-task vendor (DashScope protocol), so the gateway transforms the body, creates the task and
 * polls it with backoff (three lookups over about 1.75 s). Informational: requests/s at c=16, latency and
 * the gateway's CPU per request, no target and no floor (which cannot do it).
 */
import { checkImageGeneration } from './checks.ts';
import { defineLoadScenario } from './load-scenario.ts';

/** Requests take ~1.75 s: a round shorter than this would count too few of them. */
const MIN_ROUND_S = 4;

/** Images shape A -> envelope at c=16 on the gateway alone. */
export const imagesScenario = defineLoadScenario({
  id: 'images-envelope',
  title: 'Images shape A -> envelope (async task vendor), c=16, gateway only',
  connections: 16,
  minDurationS: MIN_ROUND_S,
  mustSucceed: true,
  request: (ctx) => ({ path: '/v1/images/generations', bodyFile: ctx.bodies.images, contentType: 'application/json' }),
  rps: { id: 'images-rps', label: 'Images shape A -> envelope c=16, requests/s', unit: 'req/s', digits: 1 },
  latency: { id: 'images-p50', label: 'Images shape A -> envelope c=16, p50 latency', unit: 'ms' },
  cpu: { id: 'images-cpu', label: 'Images shape A -> envelope c=16, CPU per request', unit: 'µs' },
  async start(ctx) {
    await checkImageGeneration(ctx, 'images-envelope', ctx.gateway, ctx.bodies.images);
    return { subject: ctx.gateway };
  },
});
