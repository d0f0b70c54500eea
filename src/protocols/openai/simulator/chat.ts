import type { ServerResponse } from 'node:http';
import { createMissingParamError, createOpenAIError, INVALID_JSON_ERROR } from './errors.ts';
import type { OpenAIState } from './state.ts';
import { readJson, sendJson, type SimRequest } from '../../../simulators/sim-server.ts';
import { formatSse, SSE_HEADERS, writeStream } from '../../../simulators/sim-stream.ts';
import { countTokens, createEcho, createToolArgs, isObject, nowSeconds, readText, splitFragments, splitPieces, toText, truncateWords } from '../../../simulators/text.ts';

/** A tool call the simulated model makes. */
interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

const DETAILS =
  '"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":0,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}}';

/**
 * POST /v1/chat/completions. Replies `Echo: <text of the last message>` (the user's prompt, or the tool
 * result after a tool call); with `tools` (and a last message that is not a tool result) it calls every
 * declared function (only the first when `parallel_tool_calls` is false, only the named one for a named
 * `tool_choice`, none for "none"). The text is cut to max_completion_tokens (or max_tokens) words,
 * finish_reason "length". prompt_tokens = words in all messages; completion_tokens = words replied;
 * `prompt_tokens_details.cached_tokens` = the simulator's `cachedInputTokens` (at most prompt_tokens).
 */
export function handleChat(state: OpenAIState, req: SimRequest, res: ServerResponse): void | Promise<void> {
  const body = readJson(req.body);
  if (!isObject(body)) return sendJson(res, 400, INVALID_JSON_ERROR);
  if (typeof body.model !== 'string') return sendJson(res, 400, createOpenAIError('you must provide a model parameter'));
  const messages = body.messages;
  if (!Array.isArray(messages)) return sendJson(res, 400, createMissingParamError('messages'));
  if (messages.length === 0) {
    return sendJson(res, 400, createOpenAIError("Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.", 'invalid_request_error', 'messages', 'empty_array'));
  }
  let promptTokens = 0;
  for (const message of messages) promptTokens += countTokens(readText(message?.content));
  const cachedInputTokens = Math.min(state.cachedInputTokens, promptTokens);
  const last = messages[messages.length - 1];
  const lastText = readText(last?.content);
  const calls = last?.role === 'tool' ? undefined : planToolCalls(state, body, lastText);
  const id = `chatcmpl-${state.nextId()}`;
  const created = nowSeconds();
  const model = JSON.stringify(body.model);
  const full = createEcho(lastText);
  const cut = truncateWords(full, body.max_completion_tokens ?? body.max_tokens);
  const text = cut ?? full;
  const stop = cut === undefined ? 'stop' : 'length';
  // With `reasoning_effort`, thinking comes back as `reasoning_content` (as OpenAI-compatible reasoning vendors send it).
  const reasoning = typeof body.reasoning_effort === 'string' && body.reasoning_effort !== 'none' ? `Thinking about: ${lastText}`.trim() : undefined;
  const reasoningTokens = reasoning ? countTokens(reasoning) : 0;
  if (body.stream === true) {
    const includeUsage = body.stream_options?.include_usage === true;
    return streamChat(state, res, { id, created, model, includeUsage, promptTokens, cachedInputTokens, reasoning }, calls, text, stop);
  }
  let message: string;
  let finish: string;
  let completionTokens: number;
  if (calls) {
    message = `{"role":"assistant","content":null,"refusal":null,"annotations":[],"tool_calls":${JSON.stringify(calls.map(toWireCall))}}`;
    finish = 'tool_calls';
    completionTokens = calls.reduce((n, c) => n + countTokens(c.arguments) + 1, 0);
  } else {
    message = `{"role":"assistant","content":${JSON.stringify(text)},"refusal":null,"annotations":[]}`;
    finish = stop;
    completionTokens = countTokens(text);
  }
  if (reasoning) message = message.replace('{"role":"assistant",', `{"role":"assistant","reasoning_content":${JSON.stringify(reasoning)},`);
  const json =
    `{"id":"${id}","object":"chat.completion","created":${created},"model":${model},"choices":[{"index":0,"message":${message},` +
    `"logprobs":null,"finish_reason":"${finish}"}],"usage":${usageJson(promptTokens, completionTokens + reasoningTokens, cachedInputTokens, reasoningTokens)},"service_tier":"default","system_fingerprint":"fp_sim"}`;
  sendJson(res, 200, json);
}

function usageJson(prompt: number, completion: number, cached: number, reasoning = 0): string {
  const details = reasoning > 0 ? DETAILS.replace('"reasoning_tokens":0', `"reasoning_tokens":${reasoning}`) : DETAILS;
  return `{"prompt_tokens":${prompt},"completion_tokens":${completion},"total_tokens":${prompt + completion},"prompt_tokens_details":{"cached_tokens":${cached},${details}`;
}

function toWireCall(call: ToolCall): unknown {
  return { id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } };
}

/** The tool calls the simulated model makes for a request, or undefined to answer text. */
function planToolCalls(state: OpenAIState, body: Record<string, any>, text: string): ToolCall[] | undefined {
  if (!Array.isArray(body.tools) || body.tools.length === 0 || body.tool_choice === 'none') return undefined;
  let fns = body.tools.filter((t: any) => t?.type === 'function' && isObject(t.function)).map((t: any) => t.function);
  const named = body.tool_choice?.function?.name;
  if (typeof named === 'string') fns = fns.filter((f: any) => f.name === named);
  else if (body.parallel_tool_calls === false) fns = fns.slice(0, 1);
  if (fns.length === 0) return undefined;
  return fns.map((fn: any) => ({
    id: `call_${state.nextId()}`,
    name: toText(fn.name),
    arguments: JSON.stringify(createToolArgs(fn.parameters, text)),
  }));
}

interface ChunkContext {
  id: string;
  created: number;
  model: string;
  includeUsage: boolean;
  cachedInputTokens: number;
  promptTokens: number;
  /** Thinking text sent as `reasoning_content` first (the request set `reasoning_effort`). */
  reasoning?: string;
}

function streamChat(
  state: OpenAIState,
  res: ServerResponse,
  ctx: ChunkContext,
  calls: ToolCall[] | undefined,
  text: string,
  stop: string,
): void | Promise<void> {
  const prefix = `{"id":"${ctx.id}","object":"chat.completion.chunk","created":${ctx.created},"model":${ctx.model},"service_tier":"default","system_fingerprint":"fp_sim","choices":[`;
  const suffix = ctx.includeUsage ? ',"usage":null,"obfuscation":"sim"}' : ',"obfuscation":"sim"}';
  const chunk = (delta: string, finish = 'null'): string =>
    formatSse(`${prefix}{"index":0,"delta":${delta},"logprobs":null,"finish_reason":${finish}}]${suffix}`);
  const paced: string[] = [];
  let completionTokens = 0;
  let head: string;
  let finish: string;
  if (calls) {
    head = chunk('{"role":"assistant","content":null,"refusal":null}');
    calls.forEach((call, index) => {
      const start = { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } };
      paced.push(chunk(`{"tool_calls":[${JSON.stringify(start)}]}`));
      for (const fragment of splitFragments(call.arguments)) {
        paced.push(chunk(`{"tool_calls":[{"index":${index},"function":{"arguments":${JSON.stringify(fragment)}}}]}`));
      }
      completionTokens += countTokens(call.arguments) + 1;
    });
    finish = '"tool_calls"';
  } else {
    head = chunk('{"role":"assistant","content":"","refusal":null}');
    const pieces = splitPieces(text, state.streamEvents);
    for (const piece of pieces) paced.push(chunk(`{"content":${JSON.stringify(piece)}}`));
    completionTokens = countTokens(pieces.join(''));
    finish = `"${stop}"`;
  }
  const reasoningTokens = ctx.reasoning ? countTokens(ctx.reasoning) : 0;
  if (ctx.reasoning) paced.unshift(chunk(`{"reasoning_content":${JSON.stringify(ctx.reasoning)}}`));
  const tail = [chunk('{}', finish)];
  if (ctx.includeUsage) {
    tail.push(formatSse(`${prefix}],"usage":${usageJson(ctx.promptTokens, completionTokens + reasoningTokens, ctx.cachedInputTokens, reasoningTokens)}}`));
  }
  tail.push('data: [DONE]\n\n');
  return writeStream(res, SSE_HEADERS, { head: [head], paced, tail }, state.streamIntervalMs);
}
