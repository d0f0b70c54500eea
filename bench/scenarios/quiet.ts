/**
 * The quiet gateway (request log silent, no limits: what the bench measured before issue 12) beside the
 * floor, chat and streamed chat at c=64. A secondary reference that shows what the log and the limiter
 * cost as deployed; informational rows, no target. Run with `--quiet-rows` (or `--only chat-c64-quiet,...`).
 */
import { MAIN_COUNT } from '../config.ts';
import { QUIET } from '../deployment.ts';
import { defineLoadScenario, type LoadScenarioSpec } from './load-scenario.ts';
import { defineChatRequest, defineStreamRequest } from './passthrough.ts';
import type { BenchContext, ScenarioPair } from './types.ts';

/** Starts a quiet gateway on the 1,000-model config as the subject, against the shared floor. */
async function startQuietPair(ctx: BenchContext): Promise<ScenarioPair> {
  const quiet = await ctx.startProxy('gateway', MAIN_COUNT, QUIET);
  return {
    base: ctx.floor,
    subject: { label: QUIET.label, kind: 'gateway', pid: quiet.proc.pid, origin: quiet.origin },
    close: () => quiet.stop(),
  };
}

const common: Pick<LoadScenarioSpec, 'connections' | 'mustSucceed' | 'start'> = { connections: 64, mustSucceed: true, start: startQuietPair };

/** Chat c=64 through the quiet gateway. */
export const quietChatScenario = defineLoadScenario({
  ...common,
  id: 'chat-c64-quiet',
  title: 'Chat passthrough, c=64, quiet gateway (log silent, no limits)',
  request: defineChatRequest,
  rps: { id: 'chat-c64-quiet-rps', label: 'Quiet gateway (log silent, no limits): chat c=64, requests/s', unit: 'req/s' },
  cpu: { id: 'chat-c64-quiet-cpu', label: 'Quiet gateway (log silent, no limits): chat c=64, CPU per request', unit: 'µs' },
});

/** Streamed chat c=64 through the quiet gateway. */
export const quietStreamScenario = defineLoadScenario({
  ...common,
  id: 'stream-c64-quiet',
  title: 'Streaming chat passthrough, c=64, quiet gateway (log silent, no limits)',
  request: defineStreamRequest,
  rps: { id: 'stream-c64-quiet-rps', label: 'Quiet gateway (log silent, no limits): stream c=64, requests/s', unit: 'req/s' },
  cpu: { id: 'stream-c64-quiet-cpu', label: 'Quiet gateway (log silent, no limits): stream c=64, CPU per request', unit: 'µs' },
});
