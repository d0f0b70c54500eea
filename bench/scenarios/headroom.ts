/**
 * The vendor headroom check: the static vendor addressed directly (with the vendor key) against the floor
 * forwarding to it, chat and streamed chat at c=64, and the Anthropic messages stream the translated row
 * draws against the floor's passthrough stream. Load generator and vendor share a CPU in both cases, so
 * a vendor that serves at least 1.3x what the floor forwards is not what limits a proxy's rate. Run
 * before every other scenario (bench/headroom-check.ts judges the rows); 3 rounds of at most 5 s.
 */
import { VENDOR_KEY_ENV } from '../config.ts';
import { HEADROOM_RATIO } from '../headroom-check.ts';
import { defineLoadScenario, type LoadScenarioSpec } from './load-scenario.ts';
import { defineChatRequest, defineStreamRequest } from './passthrough.ts';
import type { BenchContext, ScenarioPair } from './types.ts';

const ROUNDS = 3;
const ROUND_S = 5;

const common: Pick<LoadScenarioSpec, 'connections' | 'mustSucceed' | 'start' | 'maxDurationS' | 'rounds'> = {
  connections: 64,
  mustSucceed: true,
  maxDurationS: ROUND_S,
  rounds: (ctx) => Math.min(ctx.rounds, ROUNDS),
  start: async (ctx): Promise<ScenarioPair> => ({ base: ctx.floor, subject: ctx.vendor }),
};

const target = { kind: 'min-ratio', ratio: HEADROOM_RATIO } as const;

/** Chat c=64: the vendor directly vs through the floor. */
export const headroomChatScenario = defineLoadScenario({
  ...common,
  id: 'headroom-chat',
  title: 'Vendor headroom: chat c=64, vendor directly vs the floor',
  request: defineChatRequest,
  rps: { id: 'headroom-chat-rps', label: 'Vendor directly vs floor: chat c=64, requests/s', unit: 'req/s', target },
});

/** Streamed chat c=64: the vendor directly vs through the floor. */
export const headroomStreamScenario = defineLoadScenario({
  ...common,
  id: 'headroom-stream',
  title: 'Vendor headroom: streamed chat c=64, vendor directly vs the floor',
  request: defineStreamRequest,
  rps: { id: 'headroom-stream-rps', label: 'Vendor directly vs floor: stream c=64, requests/s', unit: 'req/s', target },
});

/** The Anthropic messages stream (what the translated row draws) vs the floor's passthrough stream. */
export const headroomMessagesScenario = defineLoadScenario({
  ...common,
  id: 'headroom-messages',
  title: "Vendor headroom: Anthropic messages stream c=64, vendor directly vs the floor's passthrough stream",
  request: (ctx: BenchContext, side) =>
    side.kind === 'vendor'
      ? {
          path: '/v1/messages',
          bodyFile: ctx.bodies.messagesStream,
          contentType: 'application/json',
          headers: { 'x-api-key': ctx.env[VENDOR_KEY_ENV]!, 'anthropic-version': '2023-06-01' },
        }
      : defineStreamRequest(ctx),
  rps: { id: 'headroom-messages-rps', label: 'Vendor directly (messages stream) vs floor (passthrough stream): c=64, requests/s', unit: 'req/s', target },
});

/** The headroom scenarios, run first. */
export const HEADROOM_SCENARIOS = [headroomChatScenario, headroomStreamScenario, headroomMessagesScenario];
