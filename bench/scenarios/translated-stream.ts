/**
 * The translated stream: an OpenAI-style streamed chat to a model whose vendor speaks the Anthropic
 * messages protocol, so the gateway translates the request and every stream event. The floor cannot
 * translate: its reference is the same streamed chat passed through to the OpenAI vendor (the two vendors
 * stream with the same options, so both streams carry as many content events).
 */
import { checkChatStreams } from './checks.ts';
import { defineLoadScenario } from './load-scenario.ts';
import { CHAT_PATH } from './passthrough.ts';

/** Translated stream requests/s at c=64 must reach 0.8x the floor's passthrough stream (issue 12). */
export const translatedStreamScenario = defineLoadScenario({
  id: 'translated-stream',
  title: 'Translated stream c=64 (OpenAI client, Anthropic-protocol vendor) vs the floor passthrough stream',
  connections: 64,
  mustSucceed: true,
  request: (ctx, side) => ({
    path: CHAT_PATH,
    bodyFile: side.kind === 'floor' ? ctx.bodies.stream : ctx.bodies.translatedStream,
    contentType: 'application/json',
  }),
  rps: { id: 'translated-stream-rps', label: 'Translated stream c=64 (ref: passthrough stream), requests/s', unit: 'req/s', target: { kind: 'min-ratio', ratio: 0.8 } },
  cpu: { id: 'translated-stream-cpu', label: 'Translated stream c=64 (ref: passthrough stream), CPU per request', unit: 'µs' },
  async start(ctx) {
    const baseBody = ctx.floor.kind === 'floor' ? ctx.bodies.stream : ctx.bodies.translatedStream;
    await checkChatStreams(ctx, 'translated-stream', { side: ctx.floor, bodyFile: baseBody }, { side: ctx.gateway, bodyFile: ctx.bodies.translatedStream });
    return { base: ctx.floor.kind === 'floor' ? { ...ctx.floor, label: 'floor, passthrough stream' } : ctx.floor, subject: ctx.gateway };
  },
});
