import type { ServerResponse } from 'node:http';
import { createClaudeCache } from './cache.ts';
import { signClaudeThinking } from './thinking.ts';
import { createClaudeMessage, streamClaudeMessage } from './messages.ts';
import { readMessagesChat } from './read-chat.ts';
import { findThinkingProblem } from '../../../simulators/find-thinking-problem.ts';
import { countClaudeInput, planClaudeReply } from '../../../simulators/plan-claude-reply.ts';
import { findClaudeSamplingProblem } from '../../../simulators/claude-sampling.ts';
import { SIMULATOR_KEY } from './key.ts';
import { readJson, sendJson, startSimServer, type SimRequest } from '../../../simulators/sim-server.ts';
import { createIdMaker, isObject } from '../../../simulators/text.ts';
import type { Simulator, SimulatorOptions } from '../../../simulators/types.ts';

const ERROR_TYPES: Record<number, [string, string]> = {
  400: ['invalid_request_error', 'Simulated invalid request.'],
  401: ['authentication_error', 'invalid x-api-key'],
  402: ['billing_error', 'Your credit balance is too low to access the Anthropic API.'],
  403: ['permission_error', 'Your API key does not have permission to use the specified resource.'],
  404: ['not_found_error', 'The requested resource could not be found.'],
  413: ['request_too_large', 'Request exceeds the maximum allowed number of bytes.'],
  429: ['rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit.'],
  500: ['api_error', 'Internal server error'],
  504: ['timeout_error', 'Request timed out'],
  529: ['overloaded_error', 'Overloaded'],
};

/** Models GET /v1/models lists. */
const MODELS = [
  ['claude-sonnet-4-6', 'Claude Sonnet 4.6', '2026-02-17T00:00:00Z'],
  ['claude-opus-4-6', 'Claude Opus 4.6', '2026-02-05T00:00:00Z'],
  ['claude-sonnet-4-5-20250929', 'Claude Sonnet 4.5', '2025-09-29T00:00:00Z'],
  ['claude-sonnet-4-20250514', 'Claude Sonnet 4', '2025-05-22T00:00:00Z'],
  ['claude-3-5-haiku-20241022', 'Claude Haiku 3.5', '2024-10-22T00:00:00Z'],
].map(([id, display_name, created_at]) => ({ type: 'model', id, display_name, created_at }));

/** Anthropic's error envelope (fixtures/anthropic/error-401.json) for a status. */
export function createAnthropicError(status: number, message?: string, requestId = 'req_sim_error'): unknown {
  const [type, text] = ERROR_TYPES[status] ?? (status >= 500 ? ['api_error', 'Internal server error'] : ['invalid_request_error', `Simulated error with status ${status}.`]);
  return { type: 'error', error: { type, message: message ?? text }, request_id: requestId };
}

/**
 * Starts a simulated Anthropic API; `url` is `http://127.0.0.1:P` (the SDK appends /v1/...).
 * Accepts the key as `x-api-key` or `Authorization: Bearer`, requires `anthropic-version`. Keeps a
 * prompt cache keyed by `cache_control` marks (anthropic-cache.ts).
 */
export async function startAnthropicSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const key = options.key ?? SIMULATOR_KEY;
  const nextId = createIdMaker('sim');
  const pacing = { streamEvents: options.streamEvents, streamIntervalMs: options.streamIntervalMs ?? 0, deltaUsage: options.messageDeltaUsage };
  const useCache = createClaudeCache();
  const handle = (req: SimRequest, res: ServerResponse): void | Promise<void> => {
    const requestId = `req_${nextId()}`;
    const headers = { 'request-id': requestId };
    const fail = (status: number, message?: string): void => sendJson(res, status, createAnthropicError(status, message, requestId), headers);
    const given = req.headers['x-api-key'] ?? bearerOf(req.headers.authorization);
    if (given === undefined) return fail(401, 'x-api-key header is required');
    if (given !== key) return fail(401);
    if (req.headers['anthropic-version'] === undefined) return fail(400, 'anthropic-version: header is required');
    const route = `${req.method} ${req.path}`;
    if (route === 'GET /v1/models') {
      return sendJson(res, 200, { data: MODELS, has_more: false, first_id: MODELS[0].id, last_id: MODELS[MODELS.length - 1].id }, headers);
    }
    if (req.method === 'GET' && req.path.startsWith('/v1/models/')) {
      const model = MODELS.find((m) => m.id === decodeURIComponent(req.path.slice('/v1/models/'.length)));
      return model ? sendJson(res, 200, model, headers) : fail(404, `model: ${req.path.slice('/v1/models/'.length)}`);
    }
    if (route !== 'POST /v1/messages' && route !== 'POST /v1/messages/count_tokens') return fail(404, 'Not Found');
    const body = readJson(req.body);
    if (!isObject(body)) return fail(400, 'There was an issue with your request. Please check your JSON and try again.');
    const forced = body.tool_choice?.type === 'any' || body.tool_choice?.type === 'tool';
    const problem = findProblem(body, route === 'POST /v1/messages')
      ?? (route === 'POST /v1/messages' ? findClaudeSamplingProblem(body.thinking, forced, body.top_p) : undefined);
    if (problem) return fail(400, problem);
    const chat = readMessagesChat(body);
    if (route === 'POST /v1/messages/count_tokens') return sendJson(res, 200, { input_tokens: countClaudeInput(chat) }, headers);
    const thinkingProblem = findThinkingProblem(chat, signClaudeThinking);
    if (thinkingProblem) return fail(400, thinkingProblem);
    const reply = planClaudeReply(chat, () => `toolu_${nextId()}`, signClaudeThinking);
    const cache = useCache(body);
    reply.cacheRead = cache.read;
    reply.cacheWrite = cache.written;
    reply.inputTokens -= cache.read + cache.written;
    const id = `msg_${nextId()}`;
    if (body.stream === true) return streamClaudeMessage(res, id, body.model, reply, headers, pacing);
    sendJson(res, 200, createClaudeMessage(id, body.model, reply), headers);
  };
  return startSimServer({ options, basePath: '', errorBody: (status) => createAnthropicError(status), handle });
}

function bearerOf(auth: string | undefined): string | undefined {
  return auth?.startsWith('Bearer ') ? auth.slice(7) : undefined;
}

/** The first validation error of a messages body, worded as the Messages API words it. */
function findProblem(body: Record<string, any>, needsMaxTokens: boolean): string | undefined {
  if (typeof body.model !== 'string') return 'model: Field required';
  if (needsMaxTokens && typeof body.max_tokens !== 'number') return 'max_tokens: Field required';
  if (!Array.isArray(body.messages)) return 'messages: Field required';
  if (body.messages.length === 0) return 'messages: at least one message is required';
  for (let i = 0; i < body.messages.length; i++) {
    const role = body.messages[i]?.role;
    if (role === 'system') {
      return 'messages: Unexpected role "system". The Messages API accepts a top-level `system` parameter, not "system" as an input message role.';
    }
    if (role !== 'user' && role !== 'assistant') return `messages.${i}.role: Input should be 'user' or 'assistant'`;
  }
  return undefined;
}
