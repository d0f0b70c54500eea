/**
 * Same-protocol passthrough scenarios: chat at c=1 and c=64, streamed chat at c=64, and a 5 MB multipart
 * upload, each against the floor and the gateway on the 1,000-model config.
 */
import type { BenchContext } from './types.ts';
import { defineLoadScenario, type LoadRequest } from './load-scenario.ts';

/** The chat completions path every chat scenario posts to. */
export const CHAT_PATH = '/v1/chat/completions';

/** The non-streaming chat request. */
export function defineChatRequest(ctx: BenchContext): LoadRequest {
  return { path: CHAT_PATH, bodyFile: ctx.bodies.chat, contentType: 'application/json' };
}

/** The streamed chat request. */
export function defineStreamRequest(ctx: BenchContext): LoadRequest {
  return { path: CHAT_PATH, bodyFile: ctx.bodies.stream, contentType: 'application/json' };
}

/** Non-streaming chat, one connection: median latency (issue 12: at most 1.10x the floor's). */
export const chatLatencyScenario = defineLoadScenario({
  id: 'chat-c1',
  title: 'Chat passthrough, c=1',
  connections: 1,
  request: defineChatRequest,
  mustSucceed: true,
  latency: { id: 'chat-c1-p50', label: 'Chat passthrough c=1, p50 latency', unit: 'µs', target: { kind: 'max-ratio', ratio: 1.1 } },
});

/** Non-streaming chat, 64 connections: throughput and CPU per request. */
export const chatThroughputScenario = defineLoadScenario({
  id: 'chat-c64',
  title: 'Chat passthrough, c=64',
  connections: 64,
  request: defineChatRequest,
  mustSucceed: true,
  rps: { id: 'chat-c64-rps', label: 'Chat passthrough c=64, requests/s', unit: 'req/s', target: { kind: 'min-ratio', ratio: 0.9 } },
  cpu: { id: 'chat-c64-cpu', label: 'Chat passthrough c=64, CPU per request', unit: 'µs', target: { kind: 'max-ratio', ratio: 1.15 } },
});

/** Streaming chat, 64 connections: throughput and CPU per request (no target of its own in the issue). */
export const streamThroughputScenario = defineLoadScenario({
  id: 'stream-c64',
  title: 'Streaming chat passthrough, c=64',
  connections: 64,
  request: defineStreamRequest,
  mustSucceed: true,
  rps: { id: 'stream-c64-rps', label: 'Streaming passthrough c=64, requests/s', unit: 'req/s' },
  cpu: { id: 'stream-c64-cpu', label: 'Streaming passthrough c=64, CPU per request', unit: 'µs' },
});

/** A 5 MB multipart transcription upload, one connection: latency and CPU per request. */
export const uploadScenario = defineLoadScenario({
  id: 'upload',
  title: '5 MB multipart upload, c=1',
  connections: 1,
  request: (ctx) => ({ path: '/v1/audio/transcriptions', bodyFile: ctx.bodies.upload, contentType: ctx.bodies.uploadContentType }),
  latency: { id: 'upload-p50', label: '5 MB multipart upload c=1, p50 latency', unit: 'ms', digits: 2 },
  cpu: { id: 'upload-cpu', label: '5 MB multipart upload c=1, CPU per request', unit: 'µs' },
});
