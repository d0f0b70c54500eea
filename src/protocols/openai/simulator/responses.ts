import type { ServerResponse } from 'node:http';
import { createMissingParamError, createOpenAIError, INVALID_JSON_ERROR } from './errors.ts';
import { createPreviousNotFound, readInputItems } from './responses-store.ts';
import type { OpenAIState } from './state.ts';
import { readJson, sendJson, type SimRequest } from '../../../simulators/sim-server.ts';
import { formatSse, SSE_HEADERS, writeStream } from '../../../simulators/sim-stream.ts';
import { countTokens, createEcho, createToolArgs, isObject, nowSeconds, readText, splitFragments, splitPieces } from '../../../simulators/text.ts';

/** The text of the last input item (a string input, a message's content, or a function_call_output). */
function readLastInput(input: unknown): string {
  if (typeof input === 'string') return input;
  if (!Array.isArray(input) || input.length === 0) return '';
  const last = input[input.length - 1];
  if (last?.type === 'function_call_output') return typeof last.output === 'string' ? last.output : readText(last.output);
  return readText(last?.content);
}

/** Words of `instructions` and every input item (the simulated input_tokens). */
function countInput(body: Record<string, any>): number {
  let n = countTokens(readText(body.instructions));
  if (typeof body.input === 'string') return n + countTokens(body.input);
  if (Array.isArray(body.input)) for (const item of body.input) n += countTokens(readText(item?.content ?? item?.output));
  return n;
}

function usageOf(input: number, output: number): unknown {
  return { input_tokens: input, input_tokens_details: { cached_tokens: 0 }, output_tokens: output, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: input + output };
}

/** The `response` object (fixtures/openai/responses-response.json). */
function createResponse(id: string, body: Record<string, any>, status: string, output: unknown[], usage: unknown): unknown {
  return {
    id, object: 'response', created_at: nowSeconds(), status, error: null, incomplete_details: null,
    instructions: body.instructions ?? null, max_output_tokens: body.max_output_tokens ?? null, model: body.model, output,
    parallel_tool_calls: body.parallel_tool_calls ?? true, previous_response_id: body.previous_response_id ?? null,
    reasoning: { effort: null, summary: null }, store: body.store ?? true, temperature: body.temperature ?? 1.0,
    text: { format: { type: 'text' } }, tool_choice: body.tool_choice ?? 'auto', tools: body.tools ?? [], top_p: body.top_p ?? 1.0,
    truncation: 'disabled', usage, user: body.user ?? null, metadata: body.metadata ?? {},
  };
}

/**
 * POST /v1/responses: answers `Echo: <last input text>` as one message item, or, with function `tools`
 * (and no function_call_output last), one function_call item per tool. Streams the events of
 * fixtures/openai/responses-stream.sse with a monotonic sequence_number and no [DONE]. Keeps the response
 * (unless `store: false`) for GET, DELETE and input_items; an unknown `previous_response_id` is 400.
 */
export function handleResponses(state: OpenAIState, req: SimRequest, res: ServerResponse): void | Promise<void> {
  const body = readJson(req.body);
  if (!isObject(body)) return sendJson(res, 400, INVALID_JSON_ERROR);
  if (typeof body.model !== 'string') return sendJson(res, 400, createMissingParamError('model'));
  const inputItems = readInputItems(state, body);
  if (typeof inputItems === 'string') return sendJson(res, 400, createPreviousNotFound(inputItems));
  const lastText = readLastInput(body.input);
  const lastIsOutput = Array.isArray(body.input) && body.input[body.input.length - 1]?.type === 'function_call_output';
  const fns = lastIsOutput || body.tool_choice === 'none' || !Array.isArray(body.tools) ? [] : body.tools.filter((t: any) => t?.type === 'function');
  const id = `resp_${state.nextId()}`;
  const text = createEcho(lastText);
  const items: Record<string, any>[] = fns.length > 0
    ? fns.map((fn: any) => ({ id: `fc_${state.nextId()}`, type: 'function_call', status: 'completed', arguments: JSON.stringify(createToolArgs(fn.parameters, lastText)), call_id: `call_${state.nextId()}`, name: String(fn.name) }))
    : [{ id: `msg_${state.nextId()}`, type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations: [], logprobs: [] }] }];
  const outputTokens = fns.length > 0 ? items.reduce((n, it) => n + countTokens(it.arguments) + 1, 0) : countTokens(text);
  const usage = usageOf(countInput(body), outputTokens);
  const done = createResponse(id, body, 'completed', items, usage) as Record<string, any>;
  if (body.store !== false) state.responses.set(id, { response: done, inputItems });
  if (body.stream !== true) return sendJson(res, 200, done);

  let seq = 0;
  const ev = (type: string, data: Record<string, unknown>): string => formatSse(JSON.stringify({ type, sequence_number: seq++, ...data }), type);
  const head = [
    ev('response.created', { response: createResponse(id, body, 'in_progress', [], null) }),
    ev('response.in_progress', { response: createResponse(id, body, 'in_progress', [], null) }),
  ];
  const paced: string[] = [];
  const tail: string[] = [];
  items.forEach((item, output_index) => {
    const target = output_index === 0 ? head : paced;
    if (item.type === 'message') {
      const empty = { type: 'output_text', text: '', annotations: [], logprobs: [] };
      head.push(ev('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } }));
      head.push(ev('response.content_part.added', { item_id: item.id, output_index, content_index: 0, part: empty }));
      for (const delta of splitPieces(text, state.streamEvents)) {
        paced.push(ev('response.output_text.delta', { item_id: item.id, output_index, content_index: 0, delta, logprobs: [], obfuscation: 'sim' }));
      }
      tail.push(ev('response.output_text.done', { item_id: item.id, output_index, content_index: 0, text, logprobs: [] }));
      tail.push(ev('response.content_part.done', { item_id: item.id, output_index, content_index: 0, part: item.content[0] }));
      tail.push(ev('response.output_item.done', { output_index, item }));
      return;
    }
    target.push(ev('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', arguments: '' } }));
    for (const delta of splitFragments(item.arguments)) paced.push(ev('response.function_call_arguments.delta', { item_id: item.id, output_index, delta }));
    paced.push(ev('response.function_call_arguments.done', { item_id: item.id, output_index, name: item.name, arguments: item.arguments }));
    paced.push(ev('response.output_item.done', { output_index, item }));
  });
  tail.push(ev('response.completed', { response: done }));
  return writeStream(res, SSE_HEADERS, { head, paced, tail }, state.streamIntervalMs);
}

/**
 * POST /v1/responses/compact (no fixture; shape from the OpenAI API reference / SDK `CompactedResponse`):
 * `{id, object:"response.compaction", created_at, output: [user messages..., {type:"compaction"}], usage}`.
 */
export function handleCompact(state: OpenAIState, req: SimRequest, res: ServerResponse): void {
  const body = readJson(req.body);
  if (!isObject(body)) return sendJson(res, 400, INVALID_JSON_ERROR);
  if (typeof body.model !== 'string') return sendJson(res, 400, createMissingParamError('model'));
  if (body.input === undefined && body.previous_response_id === undefined) {
    return sendJson(res, 400, createOpenAIError("Either 'input' or 'previous_response_id' must be provided.", 'invalid_request_error', 'input'));
  }
  const input = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : Array.isArray(body.input) ? body.input : [];
  const users = input
    .filter((item: any) => item?.role === 'user')
    .map((item: any) => ({ id: `msg_${state.nextId()}`, type: 'message', status: 'completed', role: 'user', content: [{ type: 'input_text', text: readText(item.content) }] }));
  const inputTokens = countInput(body);
  const compaction = { id: `cmp_${state.nextId()}`, type: 'compaction', encrypted_content: Buffer.from(`simulated compaction of ${input.length} items`).toString('base64') };
  sendJson(res, 200, { id: `resp_${state.nextId()}`, object: 'response.compaction', created_at: nowSeconds(), output: [...users, compaction], usage: usageOf(inputTokens, 1) });
}
